package api_test

import (
	"context"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdptarget "github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// One headless Debian chromium serves the package's browser tests: starting one costs a few
// seconds of CPU, more than most tests' pages. Each test gets a browser context of its own
// (cookies, storage and cache of its own, as a separate profile would have), disposed when
// the test ends.
var sharedChromium struct {
	once    sync.Once
	browser context.Context
	stop    func()
	err     error
}

// browser answers a new browser context of the shared chromium for the test, or skips the
// test when there is no chromium (.ci/run installs the package).
func browser(t testing.TB) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("browser test skipped: no chromium on PATH (apt-get install chromium)")
	}
	sharedChromium.once.Do(func() { sharedChromium.browser, sharedChromium.stop, sharedChromium.err = startChromium(path) })
	if sharedChromium.err != nil {
		t.Fatalf("start chromium: %v", sharedChromium.err)
	}
	var contextID cdp.BrowserContextID
	err = chromedp.Run(sharedChromium.browser, onBrowser(func(ctx context.Context) (err error) {
		if contextID, err = cdptarget.CreateBrowserContext().Do(ctx); err != nil {
			return err
		}
		// A new browser context has no window, and chromium opens no tab in it until it has
		// one (chromedp's WithNewBrowserContext asks for a tab without one): this blank tab
		// opens the window and keeps it.
		_, err = cdptarget.CreateTarget("about:blank").WithBrowserContextID(contextID).WithNewWindow(true).Do(ctx)
		return err
	}))
	if err != nil {
		t.Fatalf("open a browser context: %v", err)
	}
	// Registered first, so it runs last: disposing of the context closes its tabs.
	t.Cleanup(func() {
		_ = chromedp.Run(sharedChromium.browser, onBrowser(cdptarget.DisposeBrowserContext(contextID).Do))
	})
	ctx, cancel := chromedp.NewContext(sharedChromium.browser, chromedp.WithExistingBrowserContext(contextID))
	t.Cleanup(cancel)
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

// onBrowser runs fn as a command of the browser rather than of a tab.
func onBrowser(fn func(ctx context.Context) error) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		return fn(cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Browser))
	})
}

func startChromium(path string) (context.Context, func(), error) {
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		// Tests in parallel have a window each, and a test brings its tab to the front of its
		// own: a window behind another must still render and run its timers.
		chromedp.Flag("disable-backgrounding-occluded-windows", true), chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		// Calls: a fake camera and microphone, and the permission to use them granted as a
		// person would. Pages that ask for neither see no difference.
		chromedp.Flag("use-fake-device-for-media-stream", true), chromedp.Flag("use-fake-ui-for-media-stream", true),
	}
	profile, err := os.MkdirTemp("", "test-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts = append(opts, chromedp.UserDataDir(profile))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	stop := func() {
		cancel()
		cancelAlloc()
		// chromium's helpers may still write the profile as the browser exits.
		for range 50 {
			if os.RemoveAll(profile) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err := chromedp.Run(ctx); err != nil {
		stop()
		return nil, nil, err
	}
	return ctx, stop, nil
}

// stopSharedBrowser closes the shared chromium, if a test started it.
func stopSharedBrowser() {
	if sharedChromium.stop != nil {
		sharedChromium.stop()
	}
}
