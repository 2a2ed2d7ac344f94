package wshub

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"

	"github.com/google/uuid"

	"agencyhub/models"
	"agencyhub/models/sitechat/chatws"
	"agencyhub/platform/realtime"
)

// relayMessage is a relayed envelope on the bus. An envelope too large for a notification
// (WebRTC session descriptions come close) travels deflated in Z instead of E.
type relayMessage struct {
	Operators      bool            `json:"operators,omitempty"`
	UserID         uuid.UUID       `json:"user_id,omitzero"`
	Watching       uuid.UUID       `json:"watching,omitzero"`
	VisitSessionID uuid.UUID       `json:"visit_session_id,omitzero"`
	E              json.RawMessage `json:"e,omitempty"`
	Z              []byte          `json:"z,omitempty"`
}

// relayRoom is what the bus's own envelope and the target take of a notification.
const relayRoom = 400

func encodeRelay(d chatws.Delivery) (json.RawMessage, error) {
	e, err := json.Marshal(d.Envelope)
	if err != nil {
		return nil, models.Internal("encode relayed %s: %w", d.Envelope.Type, err)
	}
	m := relayMessage{Operators: d.To.Operators, UserID: d.To.UserID, Watching: d.To.Watching, VisitSessionID: d.To.VisitSessionID, E: e}
	if len(e) > realtime.MaxPayload-relayRoom {
		var z bytes.Buffer
		w, _ := flate.NewWriter(&z, flate.BestCompression)
		w.Write(e)
		w.Close()
		// base64 in JSON takes 4 bytes for 3.
		if z.Len()*4/3 > realtime.MaxPayload-relayRoom {
			return nil, models.Invalid("envelope_too_large", "payload")
		}
		m.E, m.Z = nil, z.Bytes()
	}
	return json.Marshal(m)
}

func decodeRelay(data json.RawMessage) (chatws.Delivery, error) {
	var m relayMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return chatws.Delivery{}, err
	}
	raw := []byte(m.E)
	if m.Z != nil {
		var err error
		if raw, err = io.ReadAll(flate.NewReader(bytes.NewReader(m.Z))); err != nil {
			return chatws.Delivery{}, fmt.Errorf("inflate relayed envelope: %w", err)
		}
	}
	d := chatws.Delivery{To: chatws.Target{Operators: m.Operators, UserID: m.UserID, Watching: m.Watching, VisitSessionID: m.VisitSessionID}}
	if err := json.Unmarshal(raw, &d.Envelope); err != nil {
		return chatws.Delivery{}, err
	}
	return d, nil
}
