# Multi-stage: a static, pure-Go binary (modernc SQLite needs no cgo) on a
# distroless base, running as non-root with its data on a volume.
#
# The Go image is pinned to the exact version go.mod's go line asks for
# (cli/docker_test.go holds the two together): the official image sets
# GOTOOLCHAIN=local, so an older cached 1.26 image could not build it.
# Every base image is pinned by digest, its tag beside it for people: a
# tag can be moved to other bytes, a digest cannot. To update one, pull the
# new tag and put its digest here (docker buildx imagetools inspect TAG).
FROM golang:1.26.8-bookworm@sha256:9fdc884aacc3bec89b20ffc69f4bb369c78210e3e4f600387b5128b12c199f81 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/payoutd . \
 && mkdir -p /out/data /out/key /out/backups

FROM gcr.io/distroless/static-debian12:nonroot@sha256:b7bb25d9f7c31d2bdd1982feb4dafcaf137703c7075dbe2febb41c24212b946f
COPY --from=build /out/payoutd /payoutd
# The directories must belong to the non-root user (uid 65532) before they
# become volumes: SQLite writes the database and its WAL in /data, the
# first start writes the master key in /key (a volume of its own, so no
# backup of /data carries it), and `payoutd backup` writes into /backups.
# A host directory bind-mounted over one of them must belong to uid 65532
# too (README, "Run it with Docker Compose").
COPY --from=build --chown=nonroot:nonroot /out/data /data
COPY --from=build --chown=nonroot:nonroot /out/key /key
COPY --from=build --chown=nonroot:nonroot /out/backups /backups
VOLUME ["/data", "/key"]
# PAYOUTD_BASE_URL is the address clients reach the server at; it goes into
# download links and the hosted KYC page's redirects. Set it at run time
# (compose.yaml does); without it links point at http://localhost:8080.
ENV PAYOUTD_DB=/data/payoutd.db PAYOUTD_MASTER_KEY=/key/payoutd.masterkey PAYOUTD_ADDR=:8080
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
