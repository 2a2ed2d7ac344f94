package api_test

import "testing"

// TestConsoleHasItsIcon: the console's pages link its SVG icon, which loads under the
// Content-Security-Policy (the tab fails the test on a violation), and /favicon.ico, which
// browsers and other clients ask for by habit, answers an icon too.
func TestConsoleHasItsIcon(t *testing.T) {
	t.Parallel()
	site := newConsoleSite(t)
	tb := site.tab(t)
	tb.open("/sign-in")
	tb.seeHeading("Sign in")
	var icons struct {
		Linked, SVG, ICO string
		Width            int
	}
	tb.eval(`(async () => {
		const linked = document.querySelector("link[rel=icon]")?.getAttribute("href") ?? "";
		const image = new Image();
		image.src = linked;
		await image.decode();
		const kind = async (path) => { const r = await fetch(path); return r.status + " " + r.headers.get("Content-Type"); };
		return {linked, width: image.naturalWidth, svg: await kind("/favicon.svg"), ico: await kind("/favicon.ico")};
	})()`, &icons)
	if icons.Linked != "/favicon.svg" || icons.Width == 0 || icons.SVG != "200 image/svg+xml" || icons.ICO != "200 image/vnd.microsoft.icon" {
		tb.fail("the icon: linked %q (drawn %d px wide), /favicon.svg %s, /favicon.ico %s", icons.Linked, icons.Width, icons.SVG, icons.ICO)
	}
}
