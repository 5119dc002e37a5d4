// Chess reference bot in Go (the go task track): asks the game server for the legal moves
// (GET /games/{id}/legal_moves, both rule sets), then plays a promotion, else the capture of the
// most valuable piece, else a random move. Simple on purpose: a working Go bot of the protocol.
package main

import (
	"math/rand"
	"net/url"
	"os"
	"strings"
	"time"
)

const name = "go-greedy"

var value = map[byte]int{'p': 1, 'n': 3, 'b': 3, 'r': 5, 'q': 9, 'k': 0}

// pieceAt: the piece letter on a square ("e4") of a FEN's board, 0 if empty.
func pieceAt(fen, square string) byte {
	ranks := strings.Split(strings.Fields(fen)[0], "/")
	if len(square) < 2 || len(ranks) != 8 {
		return 0
	}
	file, rank := int(square[0]-'a'), int(square[1]-'1')
	if rank < 0 || rank > 7 {
		return 0
	}
	col := 0
	for _, c := range []byte(ranks[7-rank]) {
		if c >= '1' && c <= '8' {
			col += int(c - '0')
			continue
		}
		if col == file {
			return c
		}
		col++
	}
	return 0
}

func gameServer() string {
	server := strings.TrimRight(os.Getenv("CATARENA_GAME_SERVER"), "/")
	if server == "" {
		return "http://localhost:9021"
	}
	return server
}

func move(b Body) (any, error) {
	fen := str(b["fen"])
	gameID := str(b["game_id"])
	if len(strings.Fields(fen)) < 2 || gameID == "" {
		return nil, badRequest{"fen and game_id required"}
	}
	var reply struct {
		Moves []struct {
			UCI string `json:"uci"`
		} `json:"legal_moves"`
	}
	if err := getJSON(gameServer()+"/games/"+url.PathEscape(gameID)+"/legal_moves", 3*time.Second, &reply); err != nil {
		return nil, err
	}
	if len(reply.Moves) == 0 {
		return nil, badRequest{"no legal move"}
	}
	white := strings.Fields(fen)[1] == "w"
	best, bestScore := reply.Moves[rand.Intn(len(reply.Moves))].UCI, 0
	for _, m := range reply.Moves {
		if len(m.UCI) < 4 {
			continue
		}
		score := 0
		if len(m.UCI) == 5 {
			score = 8 // a promotion
		}
		target := pieceAt(fen, m.UCI[2:4])
		// A capture: the target holds an opponent's piece (lower case is black).
		if target != 0 && (target >= 'a') == white {
			score += 10 * value[target|0x20]
		}
		if score > bestScore {
			best, bestScore = m.UCI, score
		}
	}
	return map[string]any{"move": best, "ai_id": name, "game_id": gameID, "reasoning": "greedy capture"}, nil
}

func main() {
	rand.Seed(time.Now().UnixNano())
	port := portArg()
	ok := func(status string) Route {
		return func(b Body) (any, error) {
			return map[string]any{"status": status, "ai_id": name, "game_id": b["game_id"]}, nil
		}
	}
	serve(port, name, map[string]Route{
		"GET /health": func(Body) (any, error) { return map[string]string{"status": "healthy"}, nil },
		"GET /info": func(Body) (any, error) {
			return map[string]string{"name": name, "ai_id": name, "version": "1.0", "description": "greedy-capture chess bot in Go"}, nil
		},
		"POST /join_game":  ok("joined"),
		"POST /move":       move,
		"POST /leave_game": ok("left"),
	})
}
