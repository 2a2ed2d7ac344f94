// Package wshub owns the site chat sockets: the visitor and operator channels (melody
// hubs), the SiteChatWSEnvelope and which side may send which type, the ack and error
// answers, heartbeats and the visitor's departure after a grace period, and the routing of
// the event bus's notices to the sockets they concern. Notices carry ids; the sockets get
// the records re-read through the site chat service. docs/site-chat-sockets.md describes
// the protocol for client authors.
package wshub
