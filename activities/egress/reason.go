package egress

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"syscall"
)

// Reason describes why a call failed in a few words for a user: never the request URL
// (its query may hold secrets) nor the address of the server's own DNS resolver.
func Reason(err error) string {
	var (
		refused  *RefusedError
		tooLarge *BodyTooLargeError
		dnsErr   *net.DNSError
		netErr   net.Error
		ue       *url.Error
	)
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case errors.As(err, &tooLarge):
		return tooLarge.Error()
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return "the name " + dnsErr.Name + " does not resolve"
	case errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		return "looking up the name " + dnsErr.Name + " timed out"
	case errors.As(err, &dnsErr):
		return "looking up the name " + dnsErr.Name + " failed"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed without a complete answer"
	case errors.As(err, &ue):
		return ue.Err.Error()
	}
	return err.Error()
}
