// The HTTP plumbing of the Go reference bots (Go 1.19, standard library only): a JSON route
// table served on 0.0.0.0:<port>, request bodies decoded as JSON objects, client errors answered
// 400. Single source: games/core/go/httpbot.go. Every Go bot folder (games/*/bots/go) carries an
// identical copy, because a bot folder must be self-contained; edit the source, then run
// `node scripts/sync-bot-libs.mjs` (tests/tracks.test.ts fails on a stale copy).
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"time"
)

// badRequest is answered 400 with its message and not logged.
type badRequest struct{ msg string }

func (e badRequest) Error() string { return e.msg }

// Body is a request's JSON object.
type Body = map[string]any

// Route answers one request body with a reply to encode as JSON.
type Route func(body Body) (any, error)

// portArg is the port from `bot <port>`; anything else prints the usage and exits 2.
func portArg() int {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bot <port>")
		os.Exit(2)
	}
	port, err := strconv.Atoi(os.Args[1])
	if err != nil || port < 1 || port > 65535 {
		fmt.Fprintln(os.Stderr, "usage: bot <port>")
		os.Exit(2)
	}
	return port
}

// serve answers "METHOD /path" routes on 0.0.0.0:port until the process is killed.
func serve(port int, name string, routes map[string]Route) {
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := func(code int, v any) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			_ = json.NewEncoder(w).Encode(v)
		}
		route, ok := routes[r.Method+" "+r.URL.Path]
		if !ok {
			log.Printf("404 for %s %s", r.Method, r.URL.Path)
			send(404, map[string]string{"error": "Endpoint not found"})
			return
		}
		body := Body{}
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if len(raw) > 0 && json.Unmarshal(raw, &body) != nil && r.Method == "POST" {
			body = Body{}
		}
		reply, err := route(body)
		if err != nil {
			if _, bad := err.(badRequest); !bad {
				log.Printf("%s %s: %v", r.Method, r.URL.Path, err)
				send(500, map[string]string{"error": err.Error()})
				return
			}
			send(400, map[string]string{"error": err.Error()})
			return
		}
		send(200, reply)
	})
	server := &http.Server{Addr: fmt.Sprintf("0.0.0.0:%d", port), Handler: handler, IdleTimeout: 65 * time.Second}
	log.Printf("%s listening on %d", name, port)
	if err := server.ListenAndServe(); err != nil {
		log.Fatalf("cannot listen on %d: %v", port, err)
	}
}

// getJSON fetches url into out within the timeout.
func getJSON(url string, timeout time.Duration, out any) error {
	client := http.Client{Timeout: timeout}
	res, err := client.Get(url)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("HTTP %d from %s", res.StatusCode, url)
	}
	return json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(out)
}

// str, num and list read loosely typed JSON fields.
func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}
