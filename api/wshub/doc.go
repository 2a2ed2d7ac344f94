// Package wshub is the transport of the site chat sockets: the visitor and operator
// channels (melody hubs), one room per project with its bus subscription and routing
// lanes, sockets told to read again what their room missed, the ack and error answers
// written in the order envelopes came, heartbeats, slow consumers cut, the visitor's
// departure after a grace period, and relays carried across instances on the bus. What an
// envelope does and which sockets a notice reaches is the protocol's
// (models/sitechat/chatws, behind Handler). docs/site-chat-sockets.md describes both for
// client authors.
package wshub
