# Multi-stage: a static, pure-Go binary (modernc SQLite needs no cgo) on a
# distroless base, running as non-root with its data on a volume.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/payoutd .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/payoutd /payoutd
VOLUME ["/data"]
ENV PAYOUTD_DB=/data/payoutd.db PAYOUTD_ADDR=:8080
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/payoutd"]
CMD ["serve"]
