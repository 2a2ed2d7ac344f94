# The two commands: `make run` and `make test`. Everything builds without cgo: SQLite is
# the pure-Go modernc.org/sqlite engine.
export CGO_ENABLED := 0
export GOTOOLCHAIN := local
# release is the Temporal server's own build tag for what it ships: it leaves out the
# development-only compute providers of its worker deployments (the Kubernetes one alone
# brings 300 packages to compile), which the embedded server never uses.
export GOFLAGS := -tags=release

BIN := bin/server
GO_FILES = $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')

.PHONY: run build console console-check test fmt-check lint bench crash fmt cluster cluster-build fault-test

run: build
	./$(BIN)

build: console
	go build -o $(BIN) ./cmd/server

# The console (web/console) is built into web/console/dist, which the binary embeds, only
# when its sources, its lockfile, the contract its API client is generated from, or the
# action config schemas its form validators are compiled from changed:
# dist/index.html is the stamp. npm ci runs only when the lockfile changed.
CONSOLE := web/console
CONSOLE_SOURCES = $(shell find $(CONSOLE)/src $(CONSOLE)/public -type f -not -name '*.gen.ts') $(addprefix $(CONSOLE)/,index.html package.json tsconfig.json tsconfig.app.json tsconfig.node.json vite.config.ts vite.cobrowse.config.ts) schemas/openapi.yaml $(wildcard schemas/actions/*.config.json)

console: $(CONSOLE)/dist/index.html $(CONSOLE)/dist/site-chat/cobrowse.js

# node_modules gets a go.mod of its own: some npm packages ship Go sources, which ./...
# would otherwise build, vet and test as ours.
$(CONSOLE)/node_modules/.installed: $(CONSOLE)/package-lock.json
	cd $(CONSOLE) && npm ci --no-audit --no-fund
	printf 'module npm-packages\n' > $(CONSOLE)/node_modules/go.mod
	touch $@

$(CONSOLE)/dist/index.html: $(CONSOLE)/node_modules/.installed $(CONSOLE_SOURCES)
	cd $(CONSOLE) && npm run build

# The co-browse recorder the widget loads (vite.cobrowse.config.ts) is built by the same
# npm run build, after the console, whose build empties dist/ first; this builds it alone
# when a console build left it out.
$(CONSOLE)/dist/site-chat/cobrowse.js: $(CONSOLE)/dist/index.html
	cd $(CONSOLE) && npx vite build -c vite.cobrowse.config.ts

# The console's type check runs in its build; its linter and unit tests here.
console-check: console
	cd $(CONSOLE) && npm run lint && npm test

# Every storage test runs on SQLite and, when 127.0.0.1:5432 answers, on PostgreSQL too.
# `go test -vet=all` runs all of vet's analyzers on every package, those without tests
# included, in the pass that builds the tests: the facts vet needs about the dependencies
# (the whole Temporal server among them) are computed once. A separate `go vet` would compute
# them again, since the two keep their results apart in the build cache. Three tests at a
# time, not one a core: many of them wait (on timers, pages, Temporal) with a core idle
# (docs/performance.md).
test: fmt-check console-check
	go test -vet=all -count=1 -timeout 15m -parallel 3 ./...

fmt-check:
	@test -z "$$(gofmt -l $(GO_FILES))" || (gofmt -l $(GO_FILES) && echo "gofmt needed" && exit 1)

# Redocly CLI's recommended rules on the contract; needs npm, so `make test` does not run it
# (schemas/openapi_lint_test.go checks the same in Go). Two rules are off: info-license, as
# the contract has no licence to name, and operation-4xx-response, since the only operations
# without a 4XX take no input at all (the health probe and the public documents) and the
# Go test holds every other operation to it.
REDOCLY := @redocly/cli@2.77.0
lint:
	npx --yes $(REDOCLY) lint --skip-rule info-license --skip-rule operation-4xx-response schemas/openapi.yaml

# BenchmarkEngineOverHTTP (cmd/server) takes about 6 minutes: four servers, each sent to for
# 10 s (BENCH_SECONDS) and drained, hence the longer timeout.
bench:
	go test -run '^$$' -bench . -benchmem -timeout 30m ./...

# The crash test at length: 350 runs over 10 kills of the real binary (make test runs 30 over 2).
crash:
	CRASH_ROUNDS=10 CRASH_RUNS=35 go test -count=1 -timeout 30m -run TestNoActionActsTwiceAcrossCrashes -v ./cmd/server

fmt:
	gofmt -w $(GO_FILES)

# The production shape on this machine, without containers (docs/operations.md): Temporal's
# own server and SQL tool from the module go.mod pins (its `tool` lines), two API instances,
# two workers and a proxy, on the PostgreSQL at 127.0.0.1:5432. CLUSTER_FLAGS go to
# cmd/cluster, e.g. CLUSTER_FLAGS=-fresh.
cluster: cluster-build
	./bin/cluster $(CLUSTER_FLAGS)

# The fault tests (cmd/server/faults_test.go, build tag faults) break that cluster under
# load (a worker or an API instance killed, its database connections cut, Temporal's
# services restarted) and hold site chat's fan-out across its two API instances to exactly
# once. They need PostgreSQL; `make test` leaves them out.
fault-test: cluster-build
	go test -tags=release,faults -count=1 -timeout 30m -run '^TestFault' -v ./cmd/server

cluster-build: build
	go build -o bin/cluster ./cmd/cluster
	go build -o bin/temporal-server go.temporal.io/server/cmd/server
	go build -o bin/temporal-sql-tool go.temporal.io/server/cmd/tools/sql
