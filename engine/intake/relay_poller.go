package intake

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"

	"agencyhub/activities"
	"agencyhub/activities/messenger"
	"agencyhub/models"
	"agencyhub/models/relay"
)

// Defaults of RelayPoller.
const (
	defaultRelayScan       = 5 * time.Second
	defaultRelayLongPoll   = 25 * time.Second
	defaultRelayMaxBackoff = time.Minute
)

// RelayPoller pulls the updates of relays in polling mode from the bot API (getUpdates),
// instead of the messenger delivering them to the relay's webhook, and delivers each as the
// webhook would. Every instance may run one: a relay is polled by the instance that holds
// its poll lease (a database row), renewed after every call, so each bot has one poller at
// a time across instances and another instance takes over when one dies.
type RelayPoller struct {
	// Intake stores the updates and starts their runs; BotAPI asks for them (getUpdates).
	Intake *Intake
	BotAPI *activities.BotAPI
	// Owner names this instance in the leases it holds; empty means a random id.
	Owner string
	// Scan is how often relays without a poller are looked for (5 s by default).
	Scan time.Duration
	// LongPoll is how long one getUpdates call may wait for updates (25 s by default).
	LongPoll time.Duration
	// MaxBackoff caps the wait after failures, which doubles from 1 s (1 minute by default).
	MaxBackoff time.Duration
	Log        *slog.Logger
	Now        func() time.Time

	mu      sync.Mutex
	polling map[uuid.UUID]bool
}

func (p *RelayPoller) defaults() {
	if p.Owner == "" {
		p.Owner = "poller-" + models.NewID().String()
	}
	if p.Scan <= 0 {
		p.Scan = defaultRelayScan
	}
	if p.LongPoll <= 0 {
		p.LongPoll = defaultRelayLongPoll
	}
	if p.MaxBackoff <= 0 {
		p.MaxBackoff = defaultRelayMaxBackoff
	}
	if p.Log == nil {
		p.Log = slog.Default()
	}
	if p.Now == nil {
		p.Now = func() time.Time { return time.Now().UTC() }
	}
	p.polling = map[uuid.UUID]bool{}
}

// lease is how long a claim lasts without renewal: a whole long poll and its answer, with
// room to spare.
func (p *RelayPoller) lease() time.Duration { return p.LongPoll + 30*time.Second }

// Run polls until ctx ends, then waits for the relays' pollers to stop and gives their
// leases up.
func (p *RelayPoller) Run(ctx context.Context) {
	p.defaults()
	var wg sync.WaitGroup
	defer wg.Wait()
	t := time.NewTicker(p.Scan)
	defer t.Stop()
	for {
		p.claim(ctx, &wg)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// claim starts a poller for every pollable relay whose lease this instance wins.
func (p *RelayPoller) claim(ctx context.Context, wg *sync.WaitGroup) {
	now := p.Now()
	relays, err := p.Intake.Relays.PollableRelays(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			p.Log.Error("relay poller: list relays", "err", err)
		}
		return
	}
	for _, candidate := range relays {
		p.mu.Lock()
		busy := p.polling[candidate.ActionDependencyID]
		p.mu.Unlock()
		if busy {
			continue
		}
		r, err := p.Intake.Relays.ClaimPollLease(ctx, candidate.ActionDependencyID, p.Owner, now, now.Add(p.lease()))
		if err != nil {
			p.Log.Error("relay poller: claim", "action_dependency_id", candidate.ActionDependencyID, "err", err)
			continue
		}
		if r == nil {
			continue // another instance won it
		}
		p.mu.Lock()
		p.polling[r.ActionDependencyID] = true
		p.mu.Unlock()
		wg.Go(func() {
			defer func() {
				p.mu.Lock()
				delete(p.polling, r.ActionDependencyID)
				p.mu.Unlock()
			}()
			p.poll(ctx, r)
		})
	}
}

// poll pulls one relay's updates while this instance holds its lease and the relay is in
// polling mode: offset is the last stored update id plus one, so an update is asked for
// again until it is stored (and a second store is a duplicate).
func (p *RelayPoller) poll(ctx context.Context, r *relay.Relay) {
	log := p.Log.With("action_dependency_id", r.ActionDependencyID)
	defer func() {
		// A fresh context: the lease is given up also when ctx has ended.
		release, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := p.Intake.Relays.ReleasePollLease(release, r, p.Owner); err != nil {
			log.Warn("relay poller: release lease", "err", err)
		}
	}()
	backoff := time.Duration(0)
	for ctx.Err() == nil {
		offset, wait, err := p.pollOnce(ctx, r)
		if errors.Is(err, errStopPolling) {
			return
		}
		pollError := ""
		if err != nil && ctx.Err() == nil {
			pollError = pollErrorText(err)
			backoff = min(max(2*backoff, time.Second), p.MaxBackoff)
			wait = max(wait, backoff)
			log.Warn("relay poller: getUpdates failed", "err", err, "retry_in", wait)
		} else {
			backoff = 0
		}
		if ctx.Err() != nil {
			return
		}
		kept, rerr := p.Intake.Relays.RenewPollLease(ctx, r, p.Owner, p.Now().Add(wait+p.lease()), offset, pollError)
		if rerr != nil {
			log.Error("relay poller: renew lease", "err", rerr)
			return // the lease runs out, and this or another instance claims it again
		}
		if !kept {
			return // polling turned off, the integration deleted, or the lease lost
		}
		if wait > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}
}

// errStopPolling ends a relay's poller: its integration is gone or disabled.
var errStopPolling = errors.New("the relay's integration is gone or disabled")

// pollOnce makes one getUpdates call and delivers what it answers. It answers the next
// offset, how long to wait before the next call (what the API asked for on a rate limit),
// and the failure, if any; the offset moves past every update stored before a failure.
func (p *RelayPoller) pollOnce(ctx context.Context, r *relay.Relay) (int64, time.Duration, error) {
	offset := r.PollOffset
	client, err := p.BotAPI.BotClient(ctx, r)
	if models.IsKind(err, models.KindNotFound) {
		return offset, 0, errStopPolling
	}
	if err != nil {
		return offset, 0, err
	}
	callCtx, cancel := context.WithTimeout(ctx, p.LongPoll+15*time.Second)
	defer cancel()
	updates, err := client.GetUpdates(callCtx, messenger.UpdatesRequest{Offset: offset, Timeout: p.LongPoll})
	if err != nil {
		var me *messenger.Error
		if errors.As(err, &me) {
			return offset, me.RetryAfter, err
		}
		return offset, 0, err
	}
	for _, u := range updates {
		if u.ID < offset {
			continue // an API that ignores offset: these are stored already
		}
		_, err := p.Intake.DeliverRelayUpdate(ctx, r, u.Raw, relay.SourcePolling)
		if models.IsKind(err, models.KindInvalid) {
			// An update that cannot be stored would be asked for forever: skip it.
			p.Log.Warn(
				"relay poller: skipped an update that is not one",
				"action_dependency_id", r.ActionDependencyID,
				"update_id", u.ID,
				"err", err,
			)
		} else if err != nil {
			return offset, 0, err
		}
		offset = u.ID + 1
	}
	return offset, 0, nil
}

// pollErrorText is the failure a relay's view shows: the bot API's own (its text never
// holds the token), or a pointer to the server log for anything on our side.
func pollErrorText(err error) string {
	var me *messenger.Error
	if errors.As(err, &me) {
		return me.Error()
	}
	if e := models.AsError(err); e.Kind != models.KindInternal {
		return e.Key
	}
	return "internal error; the server log has the details"
}
