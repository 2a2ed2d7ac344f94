// Package notify owns the one subscriber of the domain events that the domain packages
// record (models.RecordEvent): the Notifier, which tells people in their desktop inbox, in
// their own language, what those events call for (a run of a workflow they own failed, a
// payment they answer for is due, a task is theirs now, the AI employee waits for their
// approval) and counts the runs into the metrics. The domain packages import neither it
// nor the inbox: they store their changes and record what happened.
package notify
