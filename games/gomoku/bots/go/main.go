// Gomoku reference bot in Go (the go task track): scores every empty, non-forbidden cell near
// the stones by the lines it makes for itself and the lines it blocks for the opponent, and plays
// the best. Simple on purpose: a working Go bot of the protocol, not a strong one.
package main

import (
	"fmt"
	"net/url"
	"sync"
	"time"
)

const name = "go-lines"

var (
	mu        sync.Mutex
	forbidden = map[string]map[[2]int]bool{} // game_id → forbidden cells (variant rules)
)

func fetchForbidden(server, gameID string) map[[2]int]bool {
	out := map[[2]int]bool{}
	if server == "" || gameID == "" {
		return out
	}
	var reply struct {
		Points [][2]int `json:"forbidden_points"`
	}
	if err := getJSON(server+"/games/"+url.PathEscape(gameID)+"/forbidden_points", 3*time.Second, &reply); err != nil {
		return out // standard rules answer 404: no forbidden cells
	}
	for _, p := range reply.Points {
		out[p] = true
	}
	return out
}

func pointsOf(v any) map[[2]int]bool {
	out := map[[2]int]bool{}
	for _, p := range list(v) {
		xy := list(p)
		if len(xy) == 2 {
			i, _ := num(xy[0])
			j, _ := num(xy[1])
			out[[2]int{int(i), int(j)}] = true
		}
	}
	return out
}

func join(b Body) (any, error) {
	gameID := str(b["game_id"])
	color := str(b["my_color"])
	if gameID == "" || (color != "black" && color != "white") {
		return nil, badRequest{"game_id and my_color (black or white) required"}
	}
	points := pointsOf(b["forbidden_points"])
	if b["forbidden_points"] == nil && str(b["rules"]) != "standard" {
		points = fetchForbidden(str(b["game_server_url"]), gameID)
	}
	mu.Lock()
	forbidden[gameID] = points
	mu.Unlock()
	return map[string]any{"status": "joined", "ai_id": name, "game_id": gameID, "my_color": color}, nil
}

// lineValue: what a run of n stones with `open` free ends is worth.
func lineValue(n, open int) int {
	switch {
	case n >= 5:
		return 1_000_000
	case n == 4 && open > 0:
		return 100_000 / (3 - open)
	case n == 3 && open == 2:
		return 10_000
	case n == 3 && open == 1:
		return 1_000
	case n == 2 && open == 2:
		return 500
	case n == 2 && open == 1:
		return 100
	case n == 1:
		return 10 * open
	}
	return 0
}

// cellValue: the lines colour c would make by playing (i, j).
func cellValue(board [][]int, i, j, c int) int {
	size := len(board)
	at := func(y, x int) int {
		if y < 0 || x < 0 || y >= size || x >= size {
			return -1
		}
		return board[y][x]
	}
	total := 0
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		n, open := 1, 0
		for _, s := range []int{1, -1} {
			y, x := i+s*d[0], j+s*d[1]
			for at(y, x) == c {
				n++
				y, x = y+s*d[0], x+s*d[1]
			}
			if at(y, x) == 0 {
				open++
			}
		}
		total += lineValue(n, open)
	}
	return total
}

func move(b Body) (any, error) {
	rows := list(b["board"])
	size := len(rows)
	if size < 5 || size > 25 {
		return nil, badRequest{"board must be N×N"}
	}
	board := make([][]int, size)
	stones := 0
	for i, r := range rows {
		cells := list(r)
		if len(cells) != size {
			return nil, badRequest{"board must be N×N"}
		}
		board[i] = make([]int, size)
		for j, v := range cells {
			f, _ := num(v)
			board[i][j] = int(f)
			if board[i][j] != 0 {
				stones++
			}
		}
	}
	me := 1
	if str(b["current_player"]) == "white" {
		me = 2
	}
	mu.Lock()
	banned := forbidden[str(b["game_id"])]
	mu.Unlock()
	best, bestScore := [2]int{-1, -1}, -1
	for i := 0; i < size; i++ {
		for j := 0; j < size; j++ {
			if board[i][j] != 0 || banned[[2]int{i, j}] {
				continue
			}
			score := 0
			if stones == 0 {
				score = size - abs(i-size/2) - abs(j-size/2) // open in the centre
			} else if near(board, i, j) {
				score = cellValue(board, i, j, me)*11/10 + cellValue(board, i, j, 3-me)
			}
			if score > bestScore {
				best, bestScore = [2]int{i, j}, score
			}
		}
	}
	if best[0] < 0 {
		return nil, badRequest{"no legal move"}
	}
	return map[string]any{"move": best, "ai_id": name, "game_id": b["game_id"], "reasoning": fmt.Sprintf("line score %d", bestScore)}, nil
}

func near(board [][]int, i, j int) bool {
	for y := i - 2; y <= i+2; y++ {
		for x := j - 2; x <= j+2; x++ {
			if y >= 0 && x >= 0 && y < len(board) && x < len(board) && board[y][x] != 0 {
				return true
			}
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func main() {
	port := portArg()
	serve(port, name, map[string]Route{
		"GET /health": func(Body) (any, error) { return map[string]string{"status": "healthy"}, nil },
		"GET /info": func(Body) (any, error) {
			return map[string]string{"name": name, "ai_id": name, "version": "1.0", "description": "line-scoring Gomoku bot in Go"}, nil
		},
		"POST /join_game": join,
		"POST /get_move":  move,
		"POST /leave_game": func(b Body) (any, error) {
			mu.Lock()
			delete(forbidden, str(b["game_id"]))
			mu.Unlock()
			return map[string]any{"status": "left"}, nil
		},
	})
}
