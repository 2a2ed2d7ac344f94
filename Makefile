# The two commands: `make run` and `make test`. Everything builds without cgo: SQLite is
# the pure-Go modernc.org/sqlite engine.
export CGO_ENABLED := 0
export GOTOOLCHAIN := local

BIN := bin/server

.PHONY: run build test vet bench fmt

run: build
	./$(BIN)

build:
	go build -o $(BIN) ./cmd/server

# Every storage test runs on SQLite and, when 127.0.0.1:5432 answers, on PostgreSQL too.
test: vet
	go test -count=1 -timeout 15m ./...

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (gofmt -l . && echo "gofmt needed" && exit 1)
	go vet ./...

bench:
	go test -run '^$$' -bench . -benchmem ./...

fmt:
	gofmt -w $$(git ls-files '*.go')
