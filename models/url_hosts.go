package models

import (
	"net/url"
	"sort"
	"strings"
)

// A URLHost is the host of a settings field that holds a URL.
type URLHost struct{ Field, Host string }

// URLHosts lists, by field name, the hosts of the fields of settings (an action's config,
// an integration's metadata) that hold a URL: those named url or ending in _url whose value
// is an absolute URL with no {{ template }} in its scheme or authority. A templated host is
// known only once a run renders it.
func URLHosts(settings map[string]any) []URLHost {
	var out []URLHost
	for field, v := range settings {
		raw, ok := v.(string)
		if !ok || field != "url" && !strings.HasSuffix(field, "_url") {
			continue
		}
		if host, ok := literalHost(raw); ok {
			out = append(out, URLHost{Field: field, Host: host})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

// literalHost is the host of an absolute URL whose scheme and authority hold no template.
func literalHost(raw string) (string, bool) {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok || strings.Contains(scheme, "{{") {
		return "", false
	}
	authority := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		authority = rest[:end]
	}
	if strings.Contains(authority, "{{") {
		return "", false
	}
	u, err := url.Parse(scheme + "://" + authority)
	if err != nil || u.Hostname() == "" {
		return "", false
	}
	return u.Hostname(), true
}
