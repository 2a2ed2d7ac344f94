package messenger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"agencyhub/activities/egress"
)

// api is what both clients share: the HTTP client, the base URL and the bot token.
type api struct {
	provider string
	http     *http.Client
	base     string // no trailing slash
	token    string
}

func newAPI(provider string, hc *http.Client, baseURL, token string) (api, error) {
	base, err := parseBaseURL(baseURL)
	if err != nil {
		return api{}, fmt.Errorf("%s: %w", provider, err)
	}
	if token == "" {
		return api{}, fmt.Errorf("%s: the bot token is empty", provider)
	}
	if strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f || strings.ContainsRune("/?#%", r) }) {
		return api{}, fmt.Errorf("%s: the bot token contains characters a token cannot have", provider)
	}
	if hc == nil {
		hc = egress.NewClient(egress.Policy{}, 0)
	}
	return api{provider: provider, http: hc, base: base, token: token}, nil
}

// parseBaseURL accepts an absolute http or https URL, possibly with a path prefix.
func parseBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", errors.New("the API base URL must be an absolute http or https URL without query")
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// answer is a complete HTTP answer of the API.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// do sends req and reads the whole answer; a failure to get one is an *Error telling
// whether the request was sent.
func (a api) do(ctx context.Context, method string, req *http.Request) (answer, error) {
	ctx, progress := egress.Track(ctx)
	resp, err := a.http.Do(req.WithContext(ctx))
	if err != nil {
		return answer{}, &Error{Provider: a.provider, Method: method, Sent: progress.Sent(), cause: redact(err, a.token)}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		// The status line arrived but the answer is incomplete: the call took effect or not
		// as the status says, and an unreadable success is still a success of unknown content.
		return answer{}, &Error{Provider: a.provider, Method: method, Sent: true, StatusCode: resp.StatusCode,
			Description: "the answer was cut off", cause: redact(err, a.token)}
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// retryAfter is the wait an answer asks for: the API's own figure, else Retry-After.
func (ans answer) retryAfter(seconds int) time.Duration {
	if seconds > 0 {
		return time.Duration(seconds) * time.Second
	}
	wait, _ := egress.RetryAfter(ans.header.Get("Retry-After"), time.Now())
	return wait
}
