package suite

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"

	"github.com/gadgen/gadgen/bench/gradbench/protocol"
)

// Runs are the min_runs and min_seconds a session asks of every
// evaluation (GradBench's defaults: 1 and 1 s).
type Runs struct {
	MinRuns    int
	MinSeconds float64
}

// A Result is one evaluate message's outcome.
type Result struct {
	Eval        string `json:"eval"`
	Function    string `json:"function"`
	Description string `json:"description"`
	// Success is the tool's; Valid the validation's (false when the
	// tool failed).
	Success bool   `json:"success"`
	Valid   bool   `json:"valid"`
	Error   string `json:"error,omitempty"`
	// Runs is the number of "evaluate" timings and Mean their mean, in
	// nanoseconds: what GradBench's scorer records per message.
	Runs int     `json:"runs"`
	Mean float64 `json:"mean_ns"`
}

// A Session drives one tool through one eval as GradBench's intermediary
// and eval do together: start, define, one evaluate per request with the
// analysis of its output, each message and response logged as
// GradBench's intermediary logs them ({"elapsed", "message"} and
// {"elapsed", "response"} lines), so GradBench's own tools can read the log.
type Session struct {
	Eval    *Eval
	Tool    []string // the tool's command line
	Options Options
	Runs    Runs
	Manual  Manual
	Log     io.Writer // GradBench's log format; may be nil
	// Progress, if not nil, is called after each evaluation.
	Progress func(Result)
}

type sessionIO struct {
	s     *Session
	start time.Time
	in    io.WriteCloser
	out   *bufio.Reader
	id    int64
}

// Run runs the session and returns one Result per evaluate message. An
// error means the session itself broke (the tool exited, answered with a
// wrong id or not JSON); evaluations that fail or are invalid are Results.
func (s *Session) Run() ([]Result, error) {
	if s.Eval.Requests == nil {
		return nil, fmt.Errorf("suite: eval %s is not written", s.Eval.Name)
	}
	cmd := exec.Command(s.Tool[0], s.Tool[1:]...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &sessionIO{s: s, start: time.Now(), in: in, out: bufio.NewReaderSize(outPipe, 1<<20)}
	results, err := c.run()
	in.Close()
	werr := cmd.Wait()
	if err != nil {
		if werr != nil {
			err = fmt.Errorf("%v (tool: %v: %s)", err, werr, stderr.String())
		}
		return results, err
	}
	return results, nil
}

func (c *sessionIO) run() ([]Result, error) {
	e := c.s.Eval
	if _, err := c.send(map[string]any{"kind": "start", "eval": e.Name}); err != nil {
		return nil, err
	}
	def, err := c.send(map[string]any{"kind": "define", "module": e.Name})
	if err != nil {
		return nil, err
	}
	if def.Success == nil || !*def.Success {
		return nil, fmt.Errorf("suite: the tool does not define %s: %s", e.Name, def.Error)
	}
	var results []Result
	for req, err := range e.Requests(c.s.Options) {
		if err != nil {
			// A workload the eval could not make (a data file missing):
			// recorded as not run, and the eval goes on.
			r := Result{Eval: e.Name, Error: "not run: " + err.Error()}
			results = append(results, r)
			if c.s.Progress != nil {
				c.s.Progress(r)
			}
			continue
		}
		r, err := c.evaluate(req)
		if err != nil {
			return results, err
		}
		results = append(results, r)
		if c.s.Progress != nil {
			c.s.Progress(r)
		}
	}
	return results, nil
}

// evaluate sends one evaluate message, validates the output and sends the
// analysis.
func (c *sessionIO) evaluate(req Request) (Result, error) {
	e := c.s.Eval
	input := req.Input
	if e.Runs {
		obj, err := WithRuns(input, c.s.Runs)
		if err != nil {
			return Result{}, err
		}
		input = obj
	}
	msg := map[string]any{"kind": "evaluate", "module": e.Name, "function": req.Function, "input": input}
	if req.Description != "" {
		msg["description"] = req.Description
	}
	id := c.id
	resp, err := c.send(msg)
	if err != nil {
		return Result{}, err
	}
	r := Result{Eval: e.Name, Function: req.Function, Description: req.Description}
	var sum time.Duration
	for _, t := range resp.Timings {
		if t.Name == "evaluate" {
			r.Runs++
			sum += time.Duration(t.Nanoseconds)
		}
	}
	if r.Runs > 0 {
		r.Mean = float64(sum.Nanoseconds()) / float64(r.Runs)
	}
	r.Success = resp.Success != nil && *resp.Success
	if !r.Success {
		r.Error = resp.Error
		return r, nil
	}
	var out any
	if err := json.Unmarshal(resp.Output, &out); err != nil {
		return r, fmt.Errorf("suite: output of %s is not JSON: %v", req.Function, err)
	}
	if verr := c.s.validate(req, out); verr != nil {
		r.Error = verr.Error()
	} else {
		r.Valid = true
	}
	analysis := map[string]any{"kind": "analysis", "of": id, "valid": r.Valid}
	if r.Error != "" {
		analysis["error"] = r.Error
	}
	_, err = c.send(analysis)
	return r, err
}

// validate checks out as the eval does: its own check, its fixed
// expectation, or the manual tool's output compared by GradBench's rule.
func (s *Session) validate(req Request, out any) error {
	e := s.Eval
	if e.Check != nil {
		return e.Check(req, out)
	}
	var want any
	if e.Expect != nil {
		if w, ok := e.Expect(req); ok {
			want = w
		}
	}
	if want == nil {
		w, err := s.Manual.Evaluate(e.Name, req.Function, req.Input)
		if err != nil {
			return fmt.Errorf("golden implementation failed: %v", err)
		}
		want = w
	}
	if m := Compare(want, out); len(m) > 0 {
		shown := m[:min(len(m), 10)]
		return fmt.Errorf("found %d mismatches, showing %d:\n%s", len(m), len(shown), joinLines(shown))
	}
	return nil
}

// send writes one message with the next id and reads the response,
// logging both.
func (c *sessionIO) send(msg map[string]any) (protocol.Response, error) {
	msg["id"] = c.id
	b, err := json.Marshal(msg)
	if err != nil {
		return protocol.Response{}, err
	}
	c.log("message", b)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return protocol.Response{}, fmt.Errorf("suite: writing to the tool: %v", err)
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		if errors.Is(err, io.EOF) {
			return protocol.Response{}, fmt.Errorf("suite: the tool exited during message %d (%s)", c.id, msg["kind"])
		}
		return protocol.Response{}, err
	}
	c.log("response", line[:len(line)-1])
	var resp protocol.Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return resp, fmt.Errorf("suite: response to message %d is not JSON: %v", c.id, err)
	}
	if resp.ID != c.id {
		return resp, fmt.Errorf("suite: expected id %d, got %d", c.id, resp.ID)
	}
	c.id++
	return resp, nil
}

func (c *sessionIO) log(kind string, raw []byte) {
	if c.s.Log == nil {
		return
	}
	line, _ := json.Marshal(map[string]any{
		"elapsed": map[string]int64{"nanoseconds": time.Since(c.start).Nanoseconds()},
		kind:      json.RawMessage(raw),
	})
	c.s.Log.Write(append(line, '\n'))
}

// WithRuns returns a copy of an object input (a map or a struct) with
// GradBench's Runs fields set to r, as an evaluate message carries them.
func WithRuns(input any, r Runs) (map[string]any, error) {
	var m map[string]any
	if obj, ok := input.(map[string]any); ok {
		m = make(map[string]any, len(obj)+2)
		for k, x := range obj {
			m[k] = x
		}
	} else {
		b, err := json.Marshal(input)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("suite: input is not an object: %v", err)
		}
	}
	m["min_runs"], m["min_seconds"] = r.MinRuns, r.MinSeconds
	return m, nil
}

func joinLines(s []string) string {
	out := ""
	for i, l := range s {
		if i > 0 {
			out += "\n"
		}
		out += l
	}
	return out
}

// limitedBuffer keeps the last 64 KB written to it (a tool's stderr).
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.b = append(l.b, p...)
	if len(l.b) > 64<<10 {
		l.b = l.b[len(l.b)-64<<10:]
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }
