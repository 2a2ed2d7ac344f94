// Package work is the work tracker: boards with ordered columns, tasks (ordered in their
// column by rank, moved atomically), comments, attachments, checklists and custom fields;
// task workflows (process templates with stages and process roles); time entries and
// timers (one running timer per user, held by a unique index); reports; and the task
// events that start workflow runs (task.event_trigger), queued in the transaction of the
// change as billing's payment events are. Names never clash with automation.Workflow: a
// process template is a TaskWorkflow.
package work
