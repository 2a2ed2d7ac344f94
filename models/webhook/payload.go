package webhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"agencyhub/models"
)

// credentialHeaders are never stored with a request: they prove who sent it.
var credentialHeaders = map[string]bool{
	"Authorization": true, "Proxy-Authorization": true, "Cookie": true,
	"X-Webhook-Secret": true, "X-Api-Key": true, "X-Csrf-Token": true,
}

// Delivery is a request that passed authentication, as it is stored and run.
type Delivery struct {
	// ID is the sender's delivery id (webhook-id, else Idempotency-Key), which the API reads
	// by its idempotency rule; "" when none.
	ID string
	// IDHeader names the header ID came from, for Problems about it.
	IDHeader    string
	ContentType string
	Body        []byte
	BodySHA256  string
	// Payload is what the run's trigger outputs and templates read under endpoint_key.
	Payload map[string]any
	// Fields are the trigger's json_fields read from the payload.
	Fields   map[string]any
	Headers  map[string]string
	SourceIP string
}

// NewDelivery reads a request into what a run of the target starts from, all but its
// delivery id. Errors: invalid (unsupported_media_type for a non-JSON body to a JSON
// endpoint, malformed_json, malformed_form).
func NewDelivery(t *Target, h http.Header, body []byte, sourceIP string) (Delivery, error) {
	d := Delivery{ContentType: h.Get("Content-Type"), Body: body, SourceIP: sourceIP, Headers: storedHeaders(h)}
	payload, err := ParsePayload(t.Endpoint.ContentType, d.ContentType, body)
	if err != nil {
		return Delivery{}, err
	}
	sum := sha256.Sum256(body)
	d.Payload, d.BodySHA256 = payload, hex.EncodeToString(sum[:])
	d.Fields = ExtractFields(payload, t.JSONFields)
	return d, nil
}

// ParsePayload turns a body into a run payload: a JSON object as it is, any other JSON
// value as {"body": value}, a form as an object of strings (a repeated field as an array of
// strings), anything else as {"body": text}; an empty body as {}. An endpoint whose content
// type is json takes only JSON (application/json or a +json type). Errors: invalid.
func ParsePayload(accepts, contentType string, body []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return map[string]any{}, nil
	}
	mt, _, _ := mime.ParseMediaType(contentType)
	switch {
	case mt == "application/json" || strings.HasSuffix(mt, "+json"):
		if !utf8.Valid(body) { // JSON is UTF-8; a decoder would replace the bad bytes silently
			return nil, models.Invalid("invalid_utf8", "body")
		}
		var v any
		if !json.Valid(body) || json.Unmarshal(body, &v) != nil {
			return nil, models.Invalid("malformed_json", "body")
		}
		if obj, ok := v.(map[string]any); ok {
			return obj, nil
		}
		return map[string]any{"body": v}, nil
	case accepts == ContentJSON:
		return nil, models.Invalid("unsupported_media_type", "body")
	case mt == "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, models.Invalid("malformed_form", "body")
		}
		out := make(map[string]any, len(form))
		for k, vs := range form {
			if len(vs) == 1 {
				out[k] = vs[0]
				continue
			}
			list := make([]any, len(vs))
			for i, v := range vs {
				list[i] = v
			}
			out[k] = list
		}
		return out, nil
	default:
		return map[string]any{"body": strings.ToValidUTF8(string(body), "\uFFFD")}, nil
	}
}

// ExtractFields reads each dotted path (array elements by index: items.0.sku) from the
// payload; a path that leads nowhere reads as null.
func ExtractFields(payload map[string]any, paths []string) map[string]any {
	out := make(map[string]any, len(paths))
	for _, p := range paths {
		out[p] = lookup(payload, p)
	}
	return out
}

func lookup(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// storedHeaders are a request's headers as stored: canonical names, repeated values joined,
// credentials left out.
func storedHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, vs := range h {
		ck := http.CanonicalHeaderKey(k)
		if credentialHeaders[ck] {
			continue
		}
		out[ck] = strings.Join(vs, ", ")
	}
	return out
}

// jsonFields reads a webhook.trigger's json_fields.
func jsonFields(config map[string]any) []string {
	raw, _ := config["json_fields"].([]any)
	out := make([]string, 0, len(raw))
	for _, f := range raw {
		if s, ok := f.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}
