// Package desktop owns the desktop inbox: the messages each user gets from the product's
// own events (a task assigned to them, an AI tool call waiting for their approval, a run
// that failed in a workflow they own, a payment action due at a client they answer for).
// The notifier (models/notify) posts them through Inbox.Post, from the domain events; the
// desktop app lists, acknowledges and streams them.
// A user sees only their own messages, and only those of companies they still belong to.
package desktop
