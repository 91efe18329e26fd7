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
# volume: SQLite writes the database and its WAL there, and the first start
# writes the master key beside them. Back that key up once, apart from the
# database backups (README, "Operating it").
COPY --from=build --chown=nonroot:nonroot /out/data /data
VOLUME ["/data"]
# PAYOUTD_BASE_URL is the address clients reach the server at; it goes into
# download links and the hosted KYC page's redirects. Set it at run time
# (docker run -e PAYOUTD_BASE_URL=https://payouts.example.com); without it
# links point at http://localhost:8080.
ENV PAYOUTD_DB=/data/payoutd.db PAYOUTD_ADDR=:8080
EXPOSE 8080
USER nonroot:nonroot
# health asks this container's own /readyz (at PAYOUTD_ADDR) and exits 0
# when it is ready; distroless has no shell or curl, so the binary does it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["/payoutd", "health", "-timeout", "4s"]
# SIGTERM lets requests and jobs in flight finish for -shutdown-grace (15 s)
# and then cancels them: stop with `docker stop -t 30` (compose:
# stop_grace_period: 30s), since Docker's default 10 s would SIGKILL first.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/payoutd"]
CMD ["serve"]
