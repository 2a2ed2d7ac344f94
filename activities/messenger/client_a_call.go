package messenger

import (
	"context"
	"net/http"
)

// Call invokes any API method with params as its JSON body (POST) and answers the API's
// whole answer, {"ok": true, "result": ...}, with the token masked wherever it appears. It
// serves the bot API proxy of the messenger relay; the caller chooses which methods it lets
// through. An answer with "ok": false is an *Error whose Response holds that answer; an
// *Error without Response means no usable answer arrived.
func (c *ClientA) Call(ctx context.Context, method string, params map[string]any) (map[string]any, error) {
	if params == nil {
		params = map[string]any{}
	}
	return c.call(ctx, http.MethodPost, method, nil, params, nil)
}
