package sitechat

import (
	"math"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// PublicLimiter limits the public site chat calls of each client address on each widget
// with a token bucket (golang.org/x/time/rate): Rate calls a second, bursts of Burst.
// Buckets idle for longer than it takes to refill are forgotten, so the map stays as
// small as the set of recent callers.
type PublicLimiter struct {
	Rate  rate.Limit
	Burst int
	Now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
	swept   time.Time
}

// NewPublicLimiter allows perSecond calls a second with bursts of burst per address and
// widget.
func NewPublicLimiter(perSecond float64, burst int) *PublicLimiter {
	return &PublicLimiter{Rate: rate.Limit(perSecond), Burst: burst, Now: time.Now, buckets: map[string]*rate.Limiter{}}
}

// Allow takes one call from the bucket of addr on widget; when it is empty it answers
// false and the whole seconds until a call is allowed again.
func (l *PublicLimiter) Allow(addr, widget string) (bool, int) {
	now := l.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sweep(now)
	key := addr + "|" + widget
	b := l.buckets[key]
	if b == nil {
		b = rate.NewLimiter(l.Rate, l.Burst)
		l.buckets[key] = b
	}
	r := b.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return false, int(math.Ceil(delay.Seconds()))
	}
	return true, 0
}

// sweep forgets full buckets once a minute.
func (l *PublicLimiter) sweep(now time.Time) {
	if now.Sub(l.swept) < time.Minute {
		return
	}
	l.swept = now
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(l.Burst) {
			delete(l.buckets, k)
		}
	}
}
