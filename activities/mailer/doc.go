// Package mailer owns the delivery of mail: the SMTP Sender, configured from SMTP_URL, that
// hands one message (to, cc, bcc, subject, plain-text body) to a mail server, and the outbox
// Dispatcher that claims due rows of models/outbox, delivers them through the Sender and
// records the outcome (sent, or a failed attempt with backoff). Everything else that sends
// mail either enqueues it in the outbox or, like the workflow engine's email.send action,
// calls the Sender directly.
package mailer
