package models

import (
	"encoding/base64"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Page sizes shared by every list operation.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 200
)

// PageRequest is the `limit` and `cursor` of a list request. Lists are ordered by id, and
// ids are UUIDv7, so the order is creation order and the cursor is the last id seen.
type PageRequest struct {
	Limit  int
	Cursor string
	// Descending lists newest first, where a list offers it; the cursor is still the last
	// id seen.
	Descending bool
}

// ParsePage validates limit and cursor query values.
func ParsePage(limit int, cursor string) (PageRequest, error) {
	if limit < 1 || limit > MaxPageLimit {
		return PageRequest{}, Invalid("invalid_limit", "limit")
	}
	if cursor != "" {
		if _, err := decodeCursor(cursor); err != nil {
			return PageRequest{}, Invalid("invalid_cursor", "cursor")
		}
	}
	return PageRequest{Limit: limit, Cursor: cursor}, nil
}

// Apply restricts q (whose id column is idColumn) to the page, fetching one extra row so
// the caller can tell whether another page follows.
func (p PageRequest) Apply(q *gorm.DB, idColumn string) *gorm.DB {
	if p.Descending {
		if p.Cursor != "" {
			after, _ := decodeCursor(p.Cursor)
			q = q.Where(idColumn+" < ?", after)
		}
		return q.Order(idColumn + " DESC").Limit(p.Limit + 1)
	}
	if p.Cursor != "" {
		after, _ := decodeCursor(p.Cursor)
		q = q.Where(idColumn+" > ?", after)
	}
	return q.Order(idColumn).Limit(p.Limit + 1)
}

// Page cuts the extra row Apply fetched and returns the items with the next cursor
// ("" on the last page). id tells the id of an item.
func Page[T any](p PageRequest, rows []T, id func(T) uuid.UUID) ([]T, string) {
	if len(rows) <= p.Limit {
		return rows, ""
	}
	rows = rows[:p.Limit]
	return rows, encodeCursor(id(rows[len(rows)-1]))
}

func encodeCursor(id uuid.UUID) string { return base64.RawURLEncoding.EncodeToString(id[:]) }

func decodeCursor(cursor string) (uuid.UUID, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return uuid.Nil, err
	}
	return uuid.FromBytes(raw)
}
