package sitechat_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"agencyhub/migrations/dbtest"
	"agencyhub/models/sitechat"
	"agencyhub/platform/realtime"
)

// visit starts a visitor session on a new widget of a new tenant, with monitoring active
// so DOM frames are kept.
func visit(t *testing.T, db *dbtest.DB) (*sitechat.Service, *sitechat.VisitorAccess, *realtime.Subscription) {
	t.Helper()
	ctx := context.Background()
	tn := dbtest.NewTenant(t, db.DB, "chat")
	bus := realtime.NewLocal()
	t.Cleanup(func() { bus.Close() })
	s := sitechat.NewService(db.DB, tn.Companies, bus, nil, tn.Keys.TokenSigning, sitechat.DefaultSettings())
	w, err := s.CreateWidget(ctx, tn.Project, sitechat.WidgetFields{})
	if err != nil {
		t.Fatal(err)
	}
	sub := bus.Subscribe(sitechat.Topic(tn.Project.ID))
	t.Cleanup(sub.Close)
	p, err := s.Presence(ctx, sitechat.PresenceInput{PublicKey: w.PublicKey, AnonymousID: "anon-0123456789abcdef", URL: "https://shop.test/"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartMonitoring(ctx, p.Access.Session); err != nil {
		t.Fatal(err)
	}
	if err := s.AnswerMonitoring(ctx, p.Access, true); err != nil {
		t.Fatal(err)
	}
	v, err := s.VerifyVisitorToken(ctx, p.Token)
	if err != nil {
		t.Fatal(err)
	}
	return s, v, sub
}

func TestConcurrentEventBatchesNeverShareASequence(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		s, v, _ := visit(t, db)
		const batches, perBatch = 8, 10
		var wg sync.WaitGroup
		errs := make(chan error, batches)
		for b := range batches {
			wg.Go(func() {
				events := make([]sitechat.Event, perBatch)
				for i := range events {
					events[i] = sitechat.Event{EventType: "mutation", Payload: json.RawMessage(fmt.Sprintf(`{"batch":%d,"i":%d}`, b, i))}
				}
				// Each goroutine verifies its own token, as concurrent requests do.
				access, err := s.VerifyVisitorToken(context.Background(), mustToken(t, s, v))
				if err == nil {
					_, err = s.RecordEvents(context.Background(), access, events)
				}
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		frames, more, err := s.Frames(context.Background(), v.Session, 0, 200)
		if err != nil || more {
			t.Fatal(err, more)
		}
		if len(frames) != batches*perBatch {
			t.Fatalf("%d frames, want %d", len(frames), batches*perBatch)
		}
		for i, f := range frames {
			if f.Sequence != int64(i+1) {
				t.Fatalf("frame %d has sequence %d: sequences must run 1..%d without gaps or repeats", i, f.Sequence, len(frames))
			}
		}
		// Each batch got a consecutive block: its events keep their order.
		for i := 0; i < len(frames); i += perBatch {
			var first struct{ Batch, I int }
			json.Unmarshal([]byte(frames[i].PayloadJSON), &first)
			for j := range perBatch {
				var p struct{ Batch, I int }
				json.Unmarshal([]byte(frames[i+j].PayloadJSON), &p)
				if p.Batch != first.Batch || p.I != j {
					t.Fatalf("frame %d is %+v, want batch %d event %d", i+j, p, first.Batch, j)
				}
			}
		}
	})
}

// mustToken signs a fresh token for the session through presence, as a reconnecting widget does.
func mustToken(t *testing.T, s *sitechat.Service, v *sitechat.VisitorAccess) string {
	p, err := s.Presence(context.Background(), sitechat.PresenceInput{PublicKey: v.Widget.PublicKey, AnonymousID: v.Visitor.AnonymousID, VisitSessionID: &v.Session.ID})
	if err != nil {
		t.Error(err)
		return ""
	}
	if p.Access.Session.ID != v.Session.ID {
		t.Errorf("presence started session %s, want to resume %s", p.Access.Session.ID, v.Session.ID)
	}
	return p.Token
}

func TestNoticesCarryIdsAndStatusesOnly(t *testing.T) {
	dbtest.ForEachDialect(t, func(t *testing.T, db *dbtest.DB) {
		ctx := context.Background()
		s, v, sub := visit(t, db)
		// presence, monitoring requested, monitoring active
		for _, want := range []string{"presence.update", "monitoring.start", "monitoring.start"} {
			if n := nextNotice(t, sub); n.Type != want {
				t.Fatalf("notice %+v, want %s", n, want)
			}
		}
		m, c, err := s.PostVisitorMessage(ctx, v, sitechat.MessageInput{Body: "secret text"})
		if err != nil {
			t.Fatal(err)
		}
		opened, posted := nextNotice(t, sub), nextNotice(t, sub)
		if opened.Type != "presence.update" || opened.Status != "open" || opened.ConversationID != c.ID {
			t.Fatalf("conversation notice %+v", opened)
		}
		if posted.Type != "chat.message" || posted.MessageID != m.ID || posted.ConversationID != c.ID || posted.AuthorKind != "visitor" ||
			posted.VisitSessionID != v.Session.ID || posted.VisitorID != v.Visitor.ID || posted.ChatWidgetID != v.Widget.ID {
			t.Fatalf("message notice %+v", posted)
		}
		res, err := s.RecordEvents(ctx, v, []sitechat.Event{{EventType: "snapshot", Payload: json.RawMessage(`{"html":"<p>secret</p>"}`)}})
		if err != nil {
			t.Fatal(err)
		}
		if n := nextNotice(t, sub); n.Type != "monitoring.snapshot" || n.Sequence != res.LastSequence {
			t.Fatalf("frame notice %+v", n)
		}
	})
}

func nextNotice(t *testing.T, sub *realtime.Subscription) sitechat.Notice {
	t.Helper()
	select {
	case m := <-sub.C():
		var raw map[string]any
		if err := json.Unmarshal(m.Data, &raw); err != nil {
			t.Fatal(err)
		}
		for k, v := range raw {
			if _, isText := v.(string); !isText && k != "sequence" {
				t.Fatalf("notice field %s is %T: notices carry ids and statuses only (%s)", k, v, m.Data)
			}
		}
		n, err := sitechat.ParseNotice(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		return n
	case <-time.After(5 * time.Second):
		t.Fatal("no notice")
		return sitechat.Notice{}
	}
}
