# Production image: the one binary, no cgo. `make run` needs none of this.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build -tags release -trimpath -ldflags "-s -w" -o /out/server ./cmd/server

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/server /server
ENV APP_ADDR=0.0.0.0:8080 APP_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/server"]
