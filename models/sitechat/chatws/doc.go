// Package chatws owns the site chat's socket protocol: the SiteChatWSEnvelope, which side
// may send which type, and what each envelope does for a visitor and for an operator (the
// site chat move it makes, its ack, the envelope it passes on without storing), and which
// sockets each notice of the event bus reaches, with the record it names re-read.
//
// It knows sockets only as the Client at the other end and answers what to deliver; the
// transport (api/wshub) upgrades, reads and writes frames, keeps the rooms and carries
// relays across instances. docs/site-chat-sockets.md describes the protocol for client
// authors.
package chatws
