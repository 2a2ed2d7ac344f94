package activities

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"agencyhub/activities/egress"
	"agencyhub/models/automation"
	"agencyhub/models/integration"
)

// Limits of http.request's timeout_seconds.
const (
	httpDefaultTimeout = 30
	httpMaxTimeout     = 120
)

// providerBodyLimit is how much of a response body ProviderResponse keeps: enough to see
// what went wrong, small enough for the run history.
const providerBodyLimit = 2048

// HTTPRequest is the http.request action: it calls an endpoint the user configured, through
// the egress client, and returns the answer.
//
// Config: method (default GET; GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS); url (http or
// https); headers_json (an object, or JSON text of one, mapping header names to values);
// body (text is sent as it is, any other JSON value as JSON with Content-Type
// application/json unless headers_json sets one); timeout_seconds (default 30, at most
// 120); response_format (auto parses the body when its Content-Type is JSON, json requires
// JSON, text never parses); auth_dependency_id (optional http.auth integration whose auth
// has scheme bearer {token}, basic {username, password} or header {header_name,
// header_value}; its metadata.forward_trace_context makes the request carry the run's
// W3C trace context, which no other request does: egress.ForwardTraceContext).
//
// Output: status_code; headers (first value of each, lower-case names); body (text); json
// (the parsed body, or null). ProviderResponse holds status_code, headers and the body cut
// to 2 KiB, in results and failures alike.
//
// Every request carries an Idempotency-Key header (IdempotencyKey) unless headers_json sets
// one. Failures are classified so that nothing that may have taken effect is repeated
// automatically. Idempotent methods are GET, HEAD, OPTIONS, PUT and DELETE (RFC 9110
// 9.2.2); POST and PATCH are not, unless the author sets target_deduplicates: the target
// acts once per Idempotency-Key, so any call may be repeated with it.
//
//	config or integration unusable                               validation
//	target refused by the egress policy                          validation
//	DNS failure, connection refused or timed out, before sending transient
//	TLS certificate not trusted                                  permanent
//	no answer after sending (timeout, reset) or answer cut off   transient if idempotent,
//	                                                             else timeout_unknown
//	more than 5 redirects                                        permanent
//	body beyond the egress cap                                   permanent
//	response_format json but the body is not JSON                permanent
//	status < 400                                                 success
//	401, 403                                                     auth
//	408, 425, 429                                                rate_limited; Retry-After
//	                                                             is quoted in human_reason
//	                                                             and next_action
//	400, 404, 410, 422 and every other 4xx                       permanent
//	5xx                                                          transient if idempotent,
//	                                                             else unknown_outcome
type HTTPRequest struct {
	ActionDependencies ActionDependencies
	// Client is the egress client (egress.NewClient); nil means one with the zero Policy.
	Client *http.Client
}

// httpCall is a validated http.request config.
type httpCall struct {
	method         string
	url            *url.URL
	header         http.Header
	body           []byte
	timeout        time.Duration
	responseFormat string
	// secretHeader is a header from the integration that must not follow a redirect to
	// another host; Authorization is dropped by net/http itself.
	secretHeader string
	// allowedHosts are the hosts the integration's credential may go to (its
	// metadata.allowed_hosts, lower case); none allows any host.
	allowedHosts []string
	// forwardTrace: the integration lets the target learn the run's trace
	// (metadata.forward_trace_context).
	forwardTrace bool
	// targetDeduplicates: the author says the target acts once per Idempotency-Key
	// (config target_deduplicates), so repeating the call cannot do more than doing it once.
	targetDeduplicates bool
}

// Run executes one http.request.
func (a HTTPRequest) Run(ctx context.Context, req Request) (Result, error) {
	call, err := parseHTTPCall(req.Config)
	if err != nil {
		return Result{}, err
	}
	dep, err := loadDependency(ctx, a.ActionDependencies, req, "auth_dependency_id", integration.TypeHTTPAuth, false)
	if err != nil {
		return Result{}, err
	}
	if dep != nil {
		if err := call.authorize(ctx, dep); err != nil {
			return Result{}, err
		}
	}

	callCtx, cancel := context.WithTimeout(ctx, call.timeout)
	defer cancel()
	callCtx, progress := egress.Track(callCtx)
	if call.forwardTrace {
		callCtx = egress.ForwardTraceContext(callCtx, call.url.Host)
	}
	httpReq, err := http.NewRequestWithContext(callCtx, call.method, call.url.String(), bytes.NewReader(call.body))
	if err != nil {
		return Result{}, invalidField("url", "field_url_unusable", nil)
	}
	httpReq.Header = call.header
	if httpReq.Header.Get("Idempotency-Key") == "" {
		httpReq.Header.Set("Idempotency-Key", IdempotencyKey(req))
	}

	resp, err := a.client(call).Do(httpReq)
	if err != nil {
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		return Result{}, fromEndpoint(call.transportFailure(err, progress.Sent()), nil)
	}
	defer resp.Body.Close()
	body, readErr := io.ReadAll(resp.Body)
	provider := providerResponse(resp, body)
	if readErr != nil {
		if ctx.Err() == context.Canceled {
			return Result{}, ctx.Err()
		}
		return Result{}, fromEndpoint(call.readFailure(readErr, resp.StatusCode), provider)
	}
	if f := call.statusFailure(resp, time.Now()); f != nil {
		return Result{}, fromEndpoint(f, provider)
	}

	var parsed any
	if call.responseFormat == "json" || call.responseFormat == "auto" && isJSON(resp.Header.Get("Content-Type")) {
		if err := json.Unmarshal(body, &parsed); err != nil && call.responseFormat == "json" {
			return Result{}, fromEndpoint(Failed(ClassPermanent, "response_not_json", "response_not_json", "",
				Args{"host": call.url.Host, "status": strconv.Itoa(resp.StatusCode)}), provider)
		}
	}
	return Result{
		Output: map[string]any{
			"status_code": resp.StatusCode,
			"headers":     firstValues(resp.Header),
			"body":        string(body),
			"json":        parsed,
		},
		ProviderResponse: provider,
	}, nil
}

// client is a.Client (a zero-policy egress client when unset), adjusted so that the
// integration's credential goes to no host it may not go to: a redirect to a host outside
// its allowed_hosts fails the call, and a secret header is not sent on to another host.
func (a HTTPRequest) client(call *httpCall) *http.Client {
	base := a.Client
	if base == nil {
		base = egress.NewClient(egress.Policy{}, 0)
	}
	if call.secretHeader == "" && len(call.allowedHosts) == 0 {
		return base
	}
	c := *base
	next := c.CheckRedirect
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if !hostAllowed(call.allowedHosts, r.URL) {
			return &hostNotAllowedError{host: r.URL.Hostname()}
		}
		if call.secretHeader != "" && !strings.EqualFold(r.URL.Host, via[0].URL.Host) {
			r.Header.Del(call.secretHeader)
		}
		if next != nil {
			return next(r, via)
		}
		return nil
	}
	return &c
}

var httpMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
}

func parseHTTPCall(cfg map[string]any) (*httpCall, error) {
	call := &httpCall{header: http.Header{}}
	method, err := optionalString(cfg, "method")
	if err != nil {
		return nil, err
	}
	call.method = strings.ToUpper(method)
	if call.method == "" {
		call.method = http.MethodGet
	}
	if !httpMethods[call.method] {
		return nil, invalidField("method", "field_method", nil)
	}

	raw, err := requiredString(cfg, "url")
	if err != nil {
		return nil, err
	}
	call.url, err = url.Parse(raw)
	if err != nil || (call.url.Scheme != "http" && call.url.Scheme != "https") || call.url.Hostname() == "" {
		return nil, invalidField("url", "field_absolute_url", nil)
	}

	if err := call.parseHeaders(cfg["headers_json"]); err != nil {
		return nil, err
	}
	switch body := cfg["body"].(type) {
	case nil:
	case string:
		call.body = []byte(body)
	default:
		b, err := json.Marshal(body)
		if err != nil {
			return nil, invalidField("body", "field_not_json", nil)
		}
		call.body = b
		if call.header.Get("Content-Type") == "" {
			call.header.Set("Content-Type", "application/json")
		}
	}

	seconds, err := optionalSeconds(cfg, "timeout_seconds", httpDefaultTimeout, httpMaxTimeout)
	if err != nil {
		return nil, err
	}
	call.timeout = time.Duration(seconds * float64(time.Second))

	call.targetDeduplicates, _ = cfg["target_deduplicates"].(bool)

	call.responseFormat, err = optionalString(cfg, "response_format")
	if err != nil {
		return nil, err
	}
	switch call.responseFormat {
	case "":
		call.responseFormat = "auto"
	case "auto", "json", "text":
	default:
		return nil, invalidField("response_format", "field_response_format", nil)
	}
	return call, nil
}

// parseHeaders reads headers_json: an object, or JSON text of one, of names to scalar values.
func (c *httpCall) parseHeaders(v any) error {
	var headers map[string]any
	switch v := v.(type) {
	case nil:
		return nil
	case map[string]any:
		headers = v
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		if err := json.Unmarshal([]byte(v), &headers); err != nil {
			return invalidField("headers_json", "field_headers", nil)
		}
	default:
		return invalidField("headers_json", "field_headers", nil)
	}
	for name, value := range headers {
		text, err := optionalString(headers, name)
		if err != nil || value == nil {
			return invalidField("headers_json", "field_header_value", Args{"name": name})
		}
		if !validHeaderName(name) || strings.ContainsAny(text, "\r\n") {
			return invalidField("headers_json", "field_header_name", Args{"name": name})
		}
		c.header.Set(name, text)
	}
	return nil
}

func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// authorize adds the credentials of an http.auth integration, once the request's host is
// one its allowed_hosts lets them go to, and takes its word on forwarding the trace.
func (c *httpCall) authorize(ctx context.Context, dep *integration.Unsealed) error {
	c.forwardTrace, _ = dep.Metadata["forward_trace_context"].(bool)
	hosts, _ := dep.Metadata["allowed_hosts"].([]any)
	for _, h := range hosts {
		if h, ok := h.(string); ok && h != "" {
			c.allowedHosts = append(c.allowedHosts, strings.ToLower(h))
		}
	}
	if !hostAllowed(c.allowedHosts, c.url) {
		return Failed(ClassValidation, "host_not_allowed", "auth_host_not_allowed", "",
			Args{"hosts": strings.Join(c.allowedHosts, ", "), "host": c.url.Hostname()})
	}
	scheme, _ := optionalString(dep.Auth, "scheme")
	if scheme == "" {
		scheme, _ = optionalString(dep.Metadata, "scheme")
	}
	field := func(name string) (string, error) {
		s, _ := optionalString(dep.Auth, name)
		if s == "" {
			return "", Failed(ClassValidation, "invalid_dependency", "auth_credential_missing", "",
				Args{"scheme": scheme, "name": name})
		}
		return s, nil
	}
	switch strings.ToLower(scheme) {
	case "bearer":
		token, err := field("token")
		if err != nil {
			return err
		}
		c.header.Set("Authorization", "Bearer "+token)
	case "basic":
		user, err := field("username")
		if err != nil {
			return err
		}
		password, _ := optionalString(dep.Auth, "password")
		r := &http.Request{Header: c.header}
		r.SetBasicAuth(user, password)
		useSecret(ctx, user+":"+password) // its base64 is what goes over the wire
	case "header":
		name, err := field("header_name")
		if err != nil {
			return err
		}
		value, err := field("header_value")
		if err != nil {
			return err
		}
		if !validHeaderName(name) || strings.ContainsAny(value, "\r\n") {
			return Failed(ClassValidation, "invalid_dependency", "auth_header_invalid", "", nil)
		}
		c.header.Set(name, value)
		c.secretHeader = name
	default:
		return Failed(ClassValidation, "invalid_dependency", "auth_scheme_missing", "", nil)
	}
	return nil
}

// idempotent tells whether repeating the call cannot do more than doing it once.
func (c *httpCall) idempotent() bool {
	return c.targetDeduplicates || c.method != http.MethodPost && c.method != http.MethodPatch
}

// IdempotencyKey is the Idempotency-Key header of an http.request: the run and the action
// in it (scoped by its loop item), so every attempt of the action, automatic or by
// retry-action, and after any restart, carries the same key, and no other action's does.
func IdempotencyKey(req Request) string { return req.RunID.String() + "/" + req.ActionKey }

// transportFailure classifies a call that got no response; sent tells whether the request
// was written to a connection.
func (c *httpCall) transportFailure(err error, sent bool) *Failure {
	host := c.url.Host
	var (
		notAllowed *hostNotAllowedError
		refused    *egress.RefusedError
		certErr    *tls.CertificateVerificationError
		unknownCA  x509.UnknownAuthorityError
		hostErr    x509.HostnameError
		invalid    x509.CertificateInvalidError
		dnsErr     *net.DNSError
	)
	switch {
	case errors.As(err, &notAllowed):
		return Failed(ClassValidation, "host_not_allowed", "auth_redirect_not_allowed", "",
			Args{"host": host, "target": notAllowed.host})
	case errors.As(err, &refused):
		return Failed(ClassValidation, automation.ReasonEgressRefused, automation.ReasonEgressRefused, "",
			Args{"host": host, "egress_reason": refused.Reason})
	case errors.Is(err, egress.ErrTooManyRedirects):
		return Failed(ClassPermanent, "too_many_redirects", "too_many_redirects", "",
			Args{"host": host, "limit": strconv.Itoa(egress.MaxRedirects)})
	case errors.As(err, &certErr), errors.As(err, &unknownCA), errors.As(err, &hostErr), errors.As(err, &invalid):
		return Failed(ClassPermanent, "tls_certificate_invalid", "tls_certificate_invalid", "",
			Args{"host": host, "error": egress.Reason(err)})
	case !sent && errors.As(err, &dnsErr):
		return Failed(ClassTransient, "dns_failed", "dns_failed", "", Args{"host": host, "error": egress.Reason(err)})
	case !sent:
		return Failed(ClassTransient, "connection_failed", "connection_failed", "retried.next",
			Args{"host": host, "error": egress.Reason(err)})
	}
	return c.noAnswer("no_response", Args{"host": host, "error": egress.Reason(err)})
}

// readFailure classifies a response whose body could not be read.
func (c *httpCall) readFailure(err error, status int) *Failure {
	var tooLarge *egress.BodyTooLargeError
	if errors.As(err, &tooLarge) {
		return Failed(ClassPermanent, "response_too_large", "response_too_large", "",
			Args{"host": c.url.Host, "status": strconv.Itoa(status), "limit": strconv.FormatInt(tooLarge.Limit, 10)})
	}
	return c.noAnswer("body_cut_off", Args{"host": c.url.Host, "status": strconv.Itoa(status), "error": egress.Reason(err)})
}

// noAnswer is the failure of a request that reached the target without a complete answer,
// worded by key (or its _unknown form, which adds that the method may have taken effect).
func (c *httpCall) noAnswer(key string, args Args) *Failure {
	if c.idempotent() {
		return Failed(ClassTransient, "no_response", key, "retried.next", args)
	}
	args["method"] = c.method
	return Failed(ClassTimeoutUnknown, "no_response", key+"_unknown", "check_target.next", args)
}

// statusFailure classifies a complete answer; nil means success.
func (c *httpCall) statusFailure(resp *http.Response, now time.Time) *Failure {
	status := resp.StatusCode
	code := "http_" + strconv.Itoa(status)
	args := Args{"host": c.url.Host, "status": strconv.Itoa(status), "status_text": http.StatusText(status)}
	switch {
	case status < 400:
		return nil
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return Failed(ClassAuth, code, "http_status", "http_auth.next", args)
	case status == http.StatusRequestTimeout || status == http.StatusTooEarly || status == http.StatusTooManyRequests:
		if wait, ok := egress.RetryAfter(resp.Header.Get("Retry-After"), now); ok {
			args["wait"] = wait.String()
			return Failed(ClassRateLimited, code, "http_status_wait", "retried_after.next", args)
		}
		return Failed(ClassRateLimited, code, "http_status", "retried.next", args)
	case status < 500:
		return Failed(ClassPermanent, code, "http_status", "http_rejected.next", args)
	case c.idempotent():
		return Failed(ClassTransient, code, "http_status", "retried.next", args)
	}
	args["method"] = c.method
	return Failed(ClassUnknownOutcome, code, "http_status_unknown", "check_target.next", args)
}

func isJSON(contentType string) bool {
	mediaType, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"))
}

// firstValues maps lower-case header names to their first values.
func firstValues(h http.Header) map[string]any {
	out := make(map[string]any, len(h))
	for name, values := range h {
		if len(values) > 0 {
			out[strings.ToLower(name)] = values[0]
		}
	}
	return out
}

// providerResponse is what the endpoint answered, with the body cut to providerBodyLimit.
func providerResponse(resp *http.Response, body []byte) map[string]any {
	pr := map[string]any{"status_code": resp.StatusCode, "headers": firstValues(resp.Header)}
	if len(body) > providerBodyLimit {
		cut := providerBodyLimit
		for cut > 0 && !utf8.RuneStart(body[cut]) {
			cut--
		}
		body = body[:cut]
		pr["body_truncated"] = true
	}
	pr["body"] = string(body)
	return pr
}

// httpProvider names the endpoint of an http.request in failure diagnostics.
const httpProvider = "http"

// fromEndpoint marks f as caused by the endpoint and attaches what it answered, if anything.
func fromEndpoint(f *Failure, provider map[string]any) *Failure {
	f.Provider = httpProvider
	f.ProviderResponse = provider
	return f
}

// hostAllowed reports whether u's host is one of allowed: a name equal to an entry, or under
// an entry *.example.com (any depth of subdomain, not example.com itself). The host is the
// URL's host proper, lower case and without a trailing dot: neither user info
// (http://allowed@other/) nor a query that names an allowed host changes it. No entries
// allow every host.
func hostAllowed(allowed []string, u *url.URL) bool {
	if len(allowed) == 0 {
		return true
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for _, a := range allowed {
		if suffix, wildcard := strings.CutPrefix(a, "*"); wildcard {
			if strings.HasSuffix(host, suffix) && len(host) > len(suffix) {
				return true
			}
		} else if host == a {
			return true
		}
	}
	return false
}

// hostNotAllowedError stops a redirect to a host the credential may not go to.
type hostNotAllowedError struct{ host string }

func (e *hostNotAllowedError) Error() string {
	return "redirect to " + e.host + ", which is not among the integration's allowed_hosts"
}
