package schedules

import (
	"time"

	"agencyhub/models"
)

// ScheduleFires are the next count times, after from, at which a schedule.trigger with
// this cron (in timezone, UTC when empty) or else this interval fires: the cron read by
// CheckCron and cronParser, as publishing reads it before Temporal runs it, and the interval
// counted from the Unix epoch, as Temporal counts it. Errors: invalid (cron, timezone,
// interval_seconds).
func ScheduleFires(cronExpr string, every time.Duration, timezone string, from time.Time, count int) ([]time.Time, error) {
	if timezone == "" {
		timezone = "UTC"
	}
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		return nil, models.Invalid("invalid_timezone", "timezone")
	}
	out := make([]time.Time, 0, count)
	if cronExpr == "" {
		if every <= 0 {
			return nil, models.Invalid("invalid_body", "interval_seconds")
		}
		next := from.Truncate(time.Second)
		for len(out) < count {
			next = time.Unix(0, 0).Add((next.Sub(time.Unix(0, 0))/every + 1) * every)
			out = append(out, next.UTC())
		}
		return out, nil
	}
	if err := CheckCron(cronExpr); err != nil {
		return nil, models.Invalid("invalid_cron", "cron")
	}
	schedule, _ := cronParser.Parse(cronExpr) // CheckCron parsed it
	next := from.In(loc)
	for len(out) < count {
		next = schedule.Next(next)
		out = append(out, next.UTC())
	}
	return out, nil
}
