package chatws

import (
	"sync"

	"github.com/google/uuid"
)

// Visit is what a visitor socket stands for: one visit session of one widget.
type Visit struct {
	CompanyID, ProjectID, ChatWidgetID, VisitorID, VisitSessionID uuid.UUID
}

// Client is one connected socket as the protocol knows it: who is at the other end, and
// which visit sessions and calls an operator's socket watches.
type Client struct {
	ID   uuid.UUID
	Side Side
	// Visit is the visit session of a visitor socket, and VisitorToken the token it was let
	// in with: every envelope checks it again.
	Visit        Visit
	VisitorToken string
	// UserID and Projects are the signed-in user of an operator socket and the projects it
	// follows.
	UserID   uuid.UUID
	Projects []uuid.UUID

	mu       sync.Mutex
	watching map[uuid.UUID]struct{}
}

// Watch makes c one of the sockets a Target.Watching id picks, until Unwatch or its end.
func (c *Client) Watch(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watching == nil {
		c.watching = map[uuid.UUID]struct{}{}
	}
	c.watching[id] = struct{}{}
}

// Unwatch undoes Watch.
func (c *Client) Unwatch(id uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.watching, id)
}

// Watches reports whether c watches id.
func (c *Client) Watches(id uuid.UUID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.watching[id]
	return ok
}

// Target picks sockets in a project's room.
type Target struct {
	// Operators selects the operator sockets following the project; UserID narrows them to
	// one user's, Watching to those that watch an id (a visit session they monitor, a call
	// they are in; see Client.Watch).
	Operators bool
	UserID    uuid.UUID
	Watching  uuid.UUID
	// VisitSessionID selects the sockets of that visit session.
	VisitSessionID uuid.UUID
}

// Delivery is one envelope for the sockets a target picks.
type Delivery struct {
	To       Target
	Envelope Envelope
}

// Relay is a delivery in a project's room on every instance, passed on without being
// stored (typing, WebRTC signalling).
type Relay struct {
	ProjectID uuid.UUID
	Delivery
}

// Reply is the protocol's answer to an envelope a client sent.
type Reply struct {
	// Ack is the payload of the ack envelope; nil for none.
	Ack any
	// Relay, when set, is to be passed on before the ack; a relay that fails is answered
	// as the envelope's error.
	Relay *Relay
}
