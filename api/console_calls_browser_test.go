package api_test

// Calls between the operator's console and a visitor's widget, in one chromium with fake
// camera and microphone: two tabs, the console and a site page that embeds the widget,
// their media over WebRTC on loopback.

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"agencyhub/api"
)

// countPeers keeps every RTCPeerConnection a page makes in window.__peers, so the test can
// read the connection's state and what it sends. Injected through the DevTools protocol.
const countPeers = `(() => {
	const P = window.RTCPeerConnection;
	if (!P) return;
	window.__peers = [];
	window.RTCPeerConnection = class extends P {
		constructor(...args) { super(...args); window.__peers.push(this); }
	};
})()`

// newCallDesk is the desk's two pages (newSiteChatDesk) with no ICE servers, as
// APP_SITE_CHAT_ICE_URLS="" sets them: the two pages connect by their host candidates on
// loopback, with no STUN server to reach. Both pages are opened again once they keep their
// peer connections in window.__peers.
func newCallDesk(t *testing.T) *siteChatDesk {
	t.Helper()
	d := newSiteChatDesk(t, func(s *api.Server) { s.SiteChat.Settings.ICEServers = nil })
	for _, tb := range []*tab{d.visitor, d.operator} {
		ctx, cancel := context.WithTimeout(tb.ctx, pageWait)
		err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			_, err := page.AddScriptToEvaluateOnNewDocument(countPeers).Do(ctx)
			return err
		}))
		cancel()
		if err != nil {
			t.Fatalf("prepare the tab: %v", err)
		}
	}
	d.visitPage("/pricing")
	d.operator.open("/site-chat/visitors")
	return d
}

// widgetControl is the script finding the widget's element matching selector whose text is text.
func widgetControl(selector, text string) string {
	return `[...` + shadow + `.querySelectorAll(` + jsString(selector) + `)].find((e) => e.textContent.trim() === ` + jsString(text) + `)`
}

// pointInWidget is pointAt within the widget's shadow root, whose elements the document's
// elementFromPoint answers as the widget's host.
const pointInWidget = `function () {
	this.scrollIntoView({block: "center"});
	const r = this.getBoundingClientRect();
	const x = r.left + r.width / 2, y = r.top + r.height / 2;
	const top = this.getRootNode().elementFromPoint(x, y);
	return top && (top === this || this.contains(top)) ? [x, y] : null;
}`

// clickInWidget clicks, with the mouse, the widget's control (selector) showing text: a
// person's click, which lets the page start its camera and sound.
func (d *siteChatDesk) clickInWidget(selector, text string) {
	d.t.Helper()
	d.visitor.waitFor(fmt.Sprintf("the widget's %q to click", text), pageWait, func(ctx context.Context) (bool, error) {
		var at [2]float64
		ok, err := d.visitor.onSelected(ctx, widgetControl(selector, text), pointInWidget, &at)
		if !ok || err != nil {
			return false, err
		}
		return true, chromedp.Run(ctx, chromedp.MouseClickXY(at[0], at[1]))
	})
}

// widgetShows waits until the widget's panel shows text.
func (d *siteChatDesk) widgetShows(text string) {
	d.t.Helper()
	d.waitWidget(fmt.Sprintf("the widget to show %q", text), `w.querySelector(".p").innerText.includes(`+jsString(text)+`)`)
}

// callsEnded waits until the widget's conversation shows n "Call ended" lines.
func (d *siteChatDesk) callsEnded(n int) {
	d.t.Helper()
	d.waitWidget(fmt.Sprintf("%d calls ended in the widget", n),
		fmt.Sprintf(`[...w.querySelectorAll(".g.system")].filter((g) => g.textContent === "Call ended").length === %d`, n))
}

// peerState waits until the page's last RTCPeerConnection is in that connection state.
func (tb *tab) peerState(state string) {
	tb.t.Helper()
	tb.waitJS("the peer connection to be "+state, `window.__peers?.length > 0 && window.__peers.at(-1).connectionState === `+jsString(state))
}

// sendingAudio tells whether the page's last peer connection sends its microphone's track
// enabled (a muted one sends silence).
func (tb *tab) sendingAudio() bool {
	tb.t.Helper()
	var on bool
	tb.eval(`window.__peers.at(-1).getSenders().some((s) => s.track?.kind === "audio" && s.track.enabled)`, &on)
	return on
}

// heardEnergy is the total audio energy the page's last peer connection has received.
func (tb *tab) heardEnergy() float64 {
	tb.t.Helper()
	var energy float64
	tb.eval(`window.__peers.at(-1).getStats().then((stats) => {
		let e = 0;
		stats.forEach((r) => { if (r.type === "inbound-rtp" && r.kind === "audio") e = r.totalAudioEnergy || 0; });
		return e;
	})`, &energy)
	return energy
}

// hears waits until the audio the page's last peer connection receives grows over a second
// (sound) or stays the same (silence: the other side muted).
func (tb *tab) hears(sound bool) {
	tb.t.Helper()
	deadline := time.Now().Add(pageWait)
	for {
		before := tb.heardEnergy()
		time.Sleep(time.Second)
		if (tb.heardEnergy()-before > 1e-6) == sound {
			return
		}
		if time.Now().After(deadline) {
			tb.fail("the peer connection still receives %s", map[bool]string{true: "silence", false: "sound"}[sound])
		}
	}
}

// callStatus is the status of the visit's newest call, as the API answers it.
func (d *siteChatDesk) callStatus() string {
	d.t.Helper()
	items := d.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + d.visitSessionID + "/calls?order=desc&limit=1", token: d.owner.token}).
		expect(d.t, http.StatusOK).items()
	if len(items) == 0 {
		return ""
	}
	return items[0]["status"].(string)
}

// expectStatus waits until the API answers the newest call's status as want.
func (d *siteChatDesk) expectStatus(want string) {
	d.t.Helper()
	deadline := time.Now().Add(pageWait)
	for {
		got := d.callStatus()
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("the call's status is %q, want %q", got, want)
		}
		time.Sleep(pollEvery)
	}
}

// TestConsoleCallsBetweenOperatorAndVisitor: the operator calls a visitor from the visitor
// panel with video and recording; the visitor agrees to both and answers; both peer
// connections connect and each side sees the other; mute stops what each sends; the
// operator ends it and the recording is saved and plays. Then the visitor declines a call;
// the visitor calls, the operator answers from another page of the desk, and the visitor
// ends it; the operator leaving the desk ends a call, and last, the desk's tab crashing.
func TestConsoleCallsBetweenOperatorAndVisitor(t *testing.T) {
	t.Parallel()
	d := newCallDesk(t)
	op, visitor := d.operator, d.visitor

	// The link the service hands out for a call leads to the visitor panel's call part.
	op.open("/site-chat/visits/" + d.visitSessionID + "/call")
	op.seeHeading("Call")
	op.waitJS("the call heading to have the focus", `document.activeElement?.textContent === "Call"`)
	op.see("No calls yet.")
	op.accessible("the visitor panel's call part")

	op.click("Record the call if the visitor agrees")
	op.click("Video call")
	op.seeIn("Call bar", "Calling the visitor…")

	d.widgetShows("An operator is calling you (video).")
	d.clickInWidget("label", "Allow recording")
	d.clickInWidget("button", "Answer")

	op.seeIn("Call bar", "Connected")
	op.peerState("connected")
	visitor.peerState("connected")
	d.widgetShows("In call")
	// Each side sees the other's camera.
	op.waitJS("the visitor's video to play", `document.querySelector("video.call-remote")?.videoWidth > 0`)
	visitor.waitJS("the operator's video to play in the widget", shadow+`.querySelector("video")?.videoWidth > 0`)
	op.seeIn("Call bar", "Recording (the visitor agreed)")
	op.accessible("the call bar in a video call")

	// Mute: the operator's sending track goes silent, and the visitor hears nothing more.
	if !op.sendingAudio() {
		op.fail("the microphone's track is off before muting")
	}
	visitor.hears(true)
	op.hears(true)
	op.click("Mute")
	op.waitJS("Mute to be pressed", `document.querySelector('.call-card button[aria-pressed="true"]')?.textContent === "Mute"`)
	if op.sendingAudio() {
		op.fail("muted, the operator still sends the microphone's track")
	}
	visitor.hears(false)
	d.clickInWidget("button", "Mute")
	d.widgetShows("Unmute")
	if visitor.sendingAudio() {
		visitor.fail("muted, the visitor still sends the microphone's track")
	}
	op.hears(false)
	op.click("Mute")
	if !op.sendingAudio() {
		op.fail("unmuted, the operator's track is still off")
	}
	visitor.hears(true)

	op.click("End call")
	op.seeIn("Call bar", "Call ended")
	d.callsEnded(1)
	visitor.waitJS("the widget's peer connection to close", `window.__peers.at(-1).signalingState === "closed"`)
	visitor.waitJS("the widget's in-call bar to go", `![...`+shadow+`.querySelectorAll("button")].some((b) => b.textContent === "End")`)
	d.expectStatus("ended")

	// The recording is uploaded and plays from its download link.
	op.seeIn("Call bar", "Recording saved")
	op.waitJS("the recording to load in its player", `[...document.querySelectorAll(".call-recordings video")].some((v) => v.readyState >= 1)`)
	op.seeIn("Calls of this visit", "ended")
	op.click("Close")

	// The visitor declines an audio call, not to be recorded.
	op.click("Record the call if the visitor agrees")
	op.click("Audio call")
	d.widgetShows("An operator is calling you.")
	var asks bool
	d.inWidget(`[...w.querySelectorAll("label")].some((l) => l.textContent.includes("Allow recording"))`, &asks)
	if asks {
		visitor.fail("the widget asks to record a call the operator does not record")
	}
	d.clickInWidget("button", "Decline")
	op.seeIn("Call bar", "The call was declined")
	d.expectStatus("rejected")
	op.click("Close")

	// The visitor calls; the operator answers from the visitors' list, and the visitor ends it.
	op.click("Visitors")
	op.at("/site-chat/visitors")
	visitor.eval(`SiteChat.call(false)`)
	d.clickInWidget("button", "Call")
	d.widgetShows("Calling…")
	op.seeIn("Call bar", "A visitor is calling")
	op.accessible("the call bar ringing")
	op.click("Accept")
	op.seeIn("Call bar", "Connected")
	op.peerState("connected")
	visitor.peerState("connected")
	d.clickInWidget("button", "End")
	d.callsEnded(2)
	op.seeIn("Call bar", "Call ended")
	op.waitJS("the operator's peer connection to close", `window.__peers.at(-1).signalingState === "closed"`)
	d.expectStatus("ended")
	op.click("Close")

	// Leaving the desk ends the call, whose media and signalling the call bar holds.
	visitor.eval(`SiteChat.call(false)`)
	d.clickInWidget("button", "Call")
	op.click("Accept")
	visitor.peerState("connected")
	op.click("Workflows")
	op.at("/workflows")
	d.callsEnded(3)
	visitor.waitJS("the widget's peer connection to close", `window.__peers.at(-1).signalingState === "closed"`)
	d.expectStatus("ended")

	// A desk whose tab crashes says nothing more: the widget ends the call once its media
	// has failed, when the crashed side has stopped answering for long enough (14 s here).
	op.open("/site-chat/visits/" + d.visitSessionID + "/call")
	op.click("Audio call")
	d.widgetShows("An operator is calling you.")
	d.clickInWidget("button", "Answer")
	visitor.peerState("connected")
	crash, cancel := context.WithTimeout(op.ctx, time.Second)
	_ = chromedp.Run(crash, page.Crash()) // the tab is gone before it could answer
	cancel()
	visitor.waitFor("the widget to end the call", 90*time.Second, func(ctx context.Context) (bool, error) {
		var ended bool
		err := chromedp.Run(ctx, chromedp.Evaluate(`window.__peers.at(-1).signalingState === "closed"`, &ended))
		return ended, err
	})
	d.callsEnded(4)
	d.expectStatus("ended")
	calls := d.do(req{method: "GET", path: "/api/v1/site-visit-sessions/" + d.visitSessionID + "/calls?order=desc&limit=1", token: d.owner.token}).
		expect(t, http.StatusOK).items()
	if reason := calls[0]["end_reason"]; reason != "media_failed" {
		t.Errorf("the call ended with the reason %v, want media_failed", reason)
	}
}
