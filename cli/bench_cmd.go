package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/bench"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

func benchCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("bench", "bench [flags]",
		"Runs payoutd in-process on a temporary database under loopback load and prints what it measured:\n"+
			"the storage limit, initiate and confirm under load, the pipeline, and the read paths at each size.", stdout, stderr)
	fs := cmd.FlagSet
	duration := fs.Duration("duration", 10*time.Second, "length of each load phase")
	conc := fs.Int("concurrency", 32, "concurrent HTTP clients")
	users := fs.Int("users", 1, "sandbox users the load is spread over: 1 is a freelancer's own server (payoutd's deployment), more model an integrator's sandbox full of test users")
	sizes := fs.String("sizes", "10000,100000,1000000", "payments in the database for the read-path phase")
	samples := fs.Int("samples", 200, "GETs timed per read path at each size")
	asJSON := fs.Bool("json", false, "write one JSON object to stdout instead of the table")
	workers := fs.Int("workers", 200, "concurrent background jobs in the server (serve's default)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	profilePhase := fs.String("profile-phase", "", "profile only this phase: initiate, pipeline (confirm with the pipeline running) or drain (the backlog drain, from the workers' start); empty profiles the whole run")
	blockProfile := fs.String("blockprofile", "", "write a blocking profile (who waits on what) to this file")
	backlog := fs.Int("backlog", 20000, "payouts confirmed with the workers stopped, then drained to time the pipeline alone (0 skips the drain phases)")
	railLatency := fs.Duration("rail-latency", 50*time.Millisecond, "delay of every rail call in the second drain, as a network rail would answer (0 skips it)")
	preseed := fs.Int("preseed", 0, "settled payouts of history (ledger, audit, events, FIRAs) written to each drain's database first")
	idemKeys := fs.Bool("idempotency-keys", false, "send an Idempotency-Key with every initiate request, as a client that retries safely does")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	var phaseHook func(phase string, starts bool)
	switch *profilePhase {
	case "", "initiate", "pipeline", "drain":
	default:
		return fmt.Errorf("-profile-phase: %q is not initiate, pipeline or drain", *profilePhase)
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if *profilePhase == "" {
			if err := pprof.StartCPUProfile(f); err != nil {
				return err
			}
		} else {
			phaseHook = func(phase string, starts bool) {
				switch {
				case phase != *profilePhase:
				case starts:
					if err := pprof.StartCPUProfile(f); err != nil {
						log.Error("bench: cpu profile", "error", err.Error())
					}
				default:
					pprof.StopCPUProfile()
				}
			}
		}
		// Stops the profile whichever way the run ends (a no-op if none runs).
		defer pprof.StopCPUProfile()
	}
	if *blockProfile != "" {
		runtime.SetBlockProfileRate(int(time.Millisecond / 10))
		defer writeProfile("block", *blockProfile)
	}
	var sz []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 0 {
			return fmt.Errorf("-sizes: bad size %q", s)
		}
		sz = append(sz, n)
	}
	if *backlog < 0 || *preseed < 0 || *railLatency < 0 {
		return fmt.Errorf("-backlog, -preseed and -rail-latency cannot be negative")
	}
	if *samples < 1 {
		return fmt.Errorf("-samples: %d is not a count of requests", *samples)
	}
	start := func(ctx context.Context, dbPath string, o bench.StartOptions) (*bench.Target, error) {
		return startInProcess(ctx, dbPath, *workers, o)
	}
	res, err := bench.Run(ctx, bench.Options{Duration: *duration, Concurrency: *conc, Users: *users, Sizes: sz, Samples: *samples, Schema: schemaSQL,
		Log: log, Phase: phaseHook, Backlog: *backlog, RailLatency: *railLatency, Preseed: *preseed, IdempotencyKeys: *idemKeys}, start)
	if err != nil {
		return err
	}
	if *asJSON {
		return bench.WriteJSON(stdout, res)
	}
	bench.WriteTable(stdout, res)
	return nil
}

func writeProfile(name, path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	pprof.Lookup(name).WriteTo(f, 0)
}

// startInProcess runs the server on loopback against dbPath, wired exactly
// as serve wires it.
func startInProcess(ctx context.Context, dbPath string, workers int, o bench.StartOptions) (*bench.Target, error) {
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	sealer, err := store.LoadOrCreateMasterKey(filepath.Clean(dbPath + ".masterkey"))
	if err != nil {
		return nil, err
	}
	a, err := app.Open(ctx, app.Config{Path: dbPath, Schema: schemaSQL, Sealer: sealer, Log: log, Workers: workers,
		Rates: rates.Default(), SandboxUnknownWindow: 30 * time.Second, RailLatency: o.RailLatency})
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		a.Close()
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	srv, err := newServer(ctx, a, sealer, httpConfig{baseURL: base, rates: rates.Default(), log: log})
	if err != nil {
		a.Close()
		return nil, err
	}
	if !o.HoldWorkers {
		if err := a.Start(ctx); err != nil {
			a.Close()
			return nil, err
		}
	}
	hs := httpServer(srv, log)
	go hs.Serve(ln)
	return &bench.Target{URL: base, DB: a.DB, Sealer: sealer, StartWorkers: a.Start, Stop: sync.OnceFunc(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
		a.Stop(sctx)
		a.Close()
	})}, nil
}
