package sitechat

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agencyhub/models"
)

// MaxEventsPerBatch is the specification's limit of events in one batch.
const MaxEventsPerBatch = 50

// Co-browse frame kinds (SiteCobrowseFrame.kind).
const (
	FrameSnapshot = "snapshot"
	FrameMutation = "mutation"
)

// FrameKinds are the event types stored as co-browse frames; every other event type is an
// activity signal counted into the session's snapshot.
var FrameKinds = []string{FrameSnapshot, FrameMutation, "cursor", "touch", "scroll", "viewport", "navigation", "click", "diagnostic"}

// maxFramePayloadBytes caps one frame's payload (a DOM snapshot of a large page fits).
const maxFramePayloadBytes = 2 << 20

// Frame is one stored co-browse frame of a visit session.
type Frame struct {
	ID             uuid.UUID `gorm:"primaryKey"`
	CompanyID      uuid.UUID
	VisitSessionID uuid.UUID
	Sequence       int64
	Kind           string
	OccurredAt     time.Time
	PayloadJSON    string `gorm:"column:payload_json"`
	CreatedAt      time.Time
}

func (Frame) TableName() string { return "site_cobrowse_frames" }

// Event is one item of an event batch (SiteChatEventBatch.events).
type Event struct {
	EventType  string          `json:"event_type"`
	OccurredAt *time.Time      `json:"occurred_at"`
	Payload    json.RawMessage `json:"payload"`
	Priority   string          `json:"priority"`
}

// EventBatchResult says what a batch stored: how many events it had, how many became
// frames, and the sequences they got (0 when none).
type EventBatchResult struct {
	Accepted      int
	Frames        int
	FirstSequence int64
	LastSequence  int64
}

// The events of the widget's panel: the visitor opened or closed the chat.
const (
	EventChatOpened = "chat.opened"
	EventChatClosed = "chat.closed"
)

// RecordEvents stores a batch of the visitor's events: co-browse kinds as frames with the
// next sequences of the session, the others as activity signals in the session's state.
// DOM frames (snapshot, mutation) are kept only while monitoring is active, so nothing of
// the page is stored without the visitor's consent; they count as dropped otherwise. The
// sequences are allocated by raising the session's counter in the transaction that
// inserts the frames, so concurrent batches never share one. The panel's events set whether
// the chat is open. Errors: invalid (events: more
// than MaxEventsPerBatch, an empty event_type, a payload over 2 MiB).
func (s *Service) RecordEvents(ctx context.Context, v *VisitorAccess, events []Event) (*EventBatchResult, error) {
	var bad fieldCheck
	bad.check("events", len(events) <= MaxEventsPerBatch)
	for _, e := range events {
		bad.check("events", strings.TrimSpace(e.EventType) != "" && len(e.EventType) <= 100 && len(e.Payload) <= maxFramePayloadBytes)
	}
	if len(bad) > 0 {
		return nil, models.Invalid("invalid_event_batch", "events")
	}
	res := &EventBatchResult{Accepted: len(events)}
	var snapshot bool
	var session *VisitSession
	err := s.DB.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		if session, err = lockRow[VisitSession](tx, "visit_session_not_found", v.Session.ID); err != nil {
			return err
		}
		now := s.now()
		var frames []Frame
		for _, e := range events {
			kind := strings.TrimPrefix(e.EventType, "cobrowse.")
			if !slices.Contains(FrameKinds, kind) {
				session.State.signal(e.EventType, occurred(e, now))
				// The widget reports its panel opening and closing: whether the chat is open.
				switch e.EventType {
				case EventChatOpened:
					session.ChatOpen = true
				case EventChatClosed:
					session.ChatOpen = false
				}
				continue
			}
			if (kind == FrameSnapshot || kind == FrameMutation) && session.MonitoringStatus != MonitoringActive {
				continue
			}
			snapshot = snapshot || kind == FrameSnapshot
			frames = append(frames, Frame{ID: models.NewID(), CompanyID: session.CompanyID, VisitSessionID: session.ID, Kind: kind,
				OccurredAt: occurred(e, now), PayloadJSON: objectJSON(e.Payload), CreatedAt: now})
			session.State.follow(kind, e.Payload, session)
		}
		if len(frames) > 0 {
			res.Frames = len(frames)
			res.LastSequence = session.FrameSequence + int64(len(frames))
			res.FirstSequence = session.FrameSequence + 1
			for i := range frames {
				frames[i].Sequence = res.FirstSequence + int64(i)
			}
			if err := tx.Create(&frames).Error; err != nil {
				return models.Internal("store co-browse frames: %w", err)
			}
			session.FrameSequence = res.LastSequence
		}
		session.LastActivityAt, session.LeftAt, session.UpdatedAt = now, nil, now
		if err := tx.Save(session).Error; err != nil {
			return models.Internal("save visit session: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	v.Session = session
	n := sessionNotice(NoticeEventBatch, session)
	switch {
	case snapshot:
		n.Type, n.Sequence = NoticeMonitoringSnapshot, res.LastSequence
	case res.Frames > 0:
		n.Type, n.Sequence = NoticeMonitoringIncremental, res.LastSequence
	}
	s.publish(ctx, n)
	return res, nil
}

func occurred(e Event, now time.Time) time.Time {
	if e.OccurredAt == nil {
		return now
	}
	return e.OccurredAt.UTC().Truncate(time.Microsecond)
}

// maxSignalTypes caps how many distinct event types a session counts, so a noisy page
// cannot grow its state without end.
const maxSignalTypes = 100

func (st *SessionState) signal(eventType string, at time.Time) {
	if st.Signals == nil {
		st.Signals = map[string]int{}
	}
	if _, known := st.Signals[eventType]; known || len(st.Signals) < maxSignalTypes {
		st.Signals[eventType]++
	}
	st.EventsTotal++
	st.LastEventType, st.LastEventAt = eventType, &at
}

// follow keeps the session's page, scroll and viewport in step with the frames, which are
// rrweb events (docs/site-chat-sockets.md): a snapshot's Meta event carries the page's
// address and viewport (`data.href`, `data.width`, `data.height`), a navigation the new
// address and title (`data.payload`), a scroll the page's offsets (`data.x`, `data.y`), a
// viewport frame the new size.
func (st *SessionState) follow(kind string, payload json.RawMessage, session *VisitSession) {
	var e struct {
		Data struct {
			Href    string   `json:"href"`
			X       *float64 `json:"x"`
			Y       *float64 `json:"y"`
			Width   *float64 `json:"width"`
			Height  *float64 `json:"height"`
			Payload struct {
				Href  string `json:"href"`
				Title string `json:"title"`
			} `json:"payload"`
		} `json:"data"`
	}
	if json.Unmarshal(payload, &e) != nil {
		return
	}
	d := e.Data
	page := func(url, title string) {
		if url != "" {
			session.CurrentURL = clip(url, 2048)
		}
		if title != "" {
			session.CurrentTitle = clip(title, 500)
		}
	}
	viewport := func() {
		if d.Width != nil && d.Height != nil {
			st.ViewportWidth, st.ViewportHeight = int(math.Round(*d.Width)), int(math.Round(*d.Height))
		}
	}
	switch kind {
	case FrameSnapshot:
		page(d.Href, "")
		viewport()
	case "navigation":
		page(d.Payload.Href, d.Payload.Title)
	case "scroll":
		if d.X != nil && d.Y != nil {
			st.ScrollX, st.ScrollY = int(math.Round(*d.X)), int(math.Round(*d.Y))
		}
	case "viewport":
		viewport()
	}
}

// Frames lists up to limit frames of a session after the sequence after, in order; more
// tells whether others follow.
func (s *Service) Frames(ctx context.Context, v *VisitSession, after int64, limit int) ([]Frame, bool, error) {
	var rows []Frame
	err := s.DB.WithContext(ctx).
		Where("visit_session_id = ? AND sequence > ?", v.ID, after).
		Order("sequence").
		Limit(limit + 1).
		Find(&rows).Error
	if err != nil {
		return nil, false, models.Internal("list co-browse frames: %w", err)
	}
	if len(rows) > limit {
		return rows[:limit], true, nil
	}
	return rows, false, nil
}

// ExpireFrames deletes the frames older than Settings.FrameRetention and answers how many.
func (s *Service) ExpireFrames(ctx context.Context) (int64, error) {
	res := s.DB.WithContext(ctx).Where("created_at < ?", s.now().Add(-s.Settings.FrameRetention)).Delete(&Frame{})
	if res.Error != nil {
		return 0, models.Internal("expire co-browse frames: %w", res.Error)
	}
	return res.RowsAffected, nil
}
