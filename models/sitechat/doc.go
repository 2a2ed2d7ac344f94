// Package sitechat owns the site chat of a project: embeddable widgets and their public
// keys, visitors and their visit sessions (presence, the signed visitor token, the state
// snapshot, monitoring and invitations), event batches and the co-browse frames they
// carry (per-session sequences, retention), conversations with their messages and
// attachments, audio and video calls with their state machine, consents and recordings,
// the voice (ICE/TURN) configuration, and the notices every committed change publishes on
// the event bus for the WebSocket channels (notice.go).
//
// The API and the sockets drive it through one Service; the visitor side always enters
// through VerifyVisitorToken, the operator side through the company-scoped *Access
// loaders, so an id alone never reaches another visitor's or another company's data.
package sitechat
