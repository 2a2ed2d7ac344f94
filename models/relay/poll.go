package relay

import (
	"context"
	"time"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/integration"
)

// The poll lease is a pair of columns of the relay row: every instance's poller may claim a
// relay in polling mode whose lease is free or has run out, with a conditional UPDATE that
// only one of them wins, and keeps it by renewing it before it runs out. An instance that
// dies simply stops renewing, and another takes over after the lease time.

// PollableRelays lists relays in polling mode of active integrations whose lease is free or
// has run out at now.
func (s *Service) PollableRelays(ctx context.Context, now time.Time) ([]Relay, error) {
	var rows []Relay
	err := s.DB.WithContext(ctx).
		Joins(
			"JOIN action_dependencies ON action_dependencies.id = messenger_relays.action_dependency_id AND action_dependencies.status = ?",
			integration.StatusActive,
		).
		Where(
			"messenger_relays.mode = ? AND (messenger_relays.poll_lease_until IS NULL OR messenger_relays.poll_lease_until < ?)",
			ModePolling, now.UTC(),
		).
		Order("messenger_relays.action_dependency_id").Limit(500).Find(&rows).Error
	if err != nil {
		return nil, models.Internal("list pollable relays: %w", err)
	}
	return rows, nil
}

// ClaimPollLease takes the poll lease of a relay for owner until until, if the relay is
// still in polling mode and its lease is free, has run out at now, or is owner's already.
// It answers the relay as claimed, or nil when another instance holds it.
func (s *Service) ClaimPollLease(ctx context.Context, id uuid.UUID, owner string, now, until time.Time) (*Relay, error) {
	res := s.DB.WithContext(ctx).Model(&Relay{}).
		Where(
			"action_dependency_id = ? AND mode = ? AND (poll_lease_until IS NULL OR poll_lease_until < ? OR poll_lease_owner = ?)",
			id, ModePolling, now.UTC(), owner,
		).
		UpdateColumns(map[string]any{"poll_lease_owner": owner, "poll_lease_until": until.UTC()})
	if res.Error != nil {
		return nil, models.Internal("claim poll lease: %w", res.Error)
	}
	if res.RowsAffected != 1 {
		return nil, nil
	}
	var r Relay
	if err := s.DB.WithContext(ctx).Take(&r, "action_dependency_id = ?", id).Error; err != nil {
		return nil, models.Internal("read claimed relay: %w", err)
	}
	return &r, nil
}

// RenewPollLease extends owner's lease until until and records the polling state: the next
// offset and the last error ("" after a success). It answers false when the lease is no
// longer owner's or the relay left polling mode (or was deleted): the poller then stops.
func (s *Service) RenewPollLease(ctx context.Context, r *Relay, owner string, until time.Time, offset int64,
	pollError string) (bool, error) {
	now := s.now()
	res := s.DB.WithContext(ctx).Model(&Relay{}).
		Where("action_dependency_id = ? AND mode = ? AND poll_lease_owner = ?", r.ActionDependencyID, ModePolling, owner).
		UpdateColumns(map[string]any{"poll_lease_until": until.UTC(), "poll_offset": offset, "poll_error": pollError, "polled_at": now})
	if res.Error != nil {
		return false, models.Internal("renew poll lease: %w", res.Error)
	}
	if res.RowsAffected == 1 {
		r.PollLeaseUntil, r.PollOffset, r.PollError, r.PolledAt = &until, offset, pollError, &now
	}
	return res.RowsAffected == 1, nil
}

// ReleasePollLease gives owner's lease up, so another instance may poll at once.
func (s *Service) ReleasePollLease(ctx context.Context, r *Relay, owner string) error {
	err := s.DB.WithContext(ctx).Model(&Relay{}).
		Where("action_dependency_id = ? AND poll_lease_owner = ?", r.ActionDependencyID, owner).
		UpdateColumns(map[string]any{"poll_lease_owner": "", "poll_lease_until": nil}).Error
	if err != nil {
		return models.Internal("release poll lease: %w", err)
	}
	return nil
}
