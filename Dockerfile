# Multi-stage: a static, pure-Go binary (modernc SQLite needs no cgo) on a
# distroless base, running as non-root with its data on a volume.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/payoutd . \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/payoutd /payoutd
# The data directory must belong to the non-root user before it becomes a
# volume: SQLite writes the database, its WAL, the lock and the master key there.
COPY --from=build --chown=nonroot:nonroot /out/data /data
VOLUME ["/data"]
ENV PAYOUTD_DB=/data/payoutd.db PAYOUTD_ADDR=:8080
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/payoutd"]
CMD ["serve"]
