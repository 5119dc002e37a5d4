// Hold'em reference bot in Go (the go task track): checks when it can, calls small bets, raises
// the minimum now and then, and folds to large bets. Simple on purpose: a working Go bot of the
// protocol, not a strong one.
package main

import (
	"math"
	"math/rand"
	"time"
)

const name = "go-caller"

func action(b Body) (any, error) {
	offers := list(b["valid_actions"])
	var canCheck, canFold bool
	call, raiseMin := math.Inf(1), math.Inf(1)
	for _, o := range offers {
		offer, _ := o.(map[string]any)
		switch str(offer["action"]) {
		case "check":
			canCheck = true
		case "fold":
			canFold = true
		case "call":
			if amount, ok := num(offer["amount"]); ok {
				call = amount
			}
		case "raise":
			if bounds, ok := offer["amount"].(map[string]any); ok {
				if lo, ok := num(bounds["min"]); ok {
					raiseMin = math.Max(1, math.Ceil(lo))
				}
			}
		}
	}
	if !math.IsInf(raiseMin, 1) && rand.Float64() < 0.15 {
		return map[string]any{"action": "raise", "amount": int(raiseMin)}, nil
	}
	if canCheck {
		return map[string]any{"action": "check", "amount": 0}, nil
	}
	if !math.IsInf(call, 1) && (call <= 40 || !canFold) {
		return map[string]any{"action": "call", "amount": int(call)}, nil
	}
	if canFold {
		return map[string]any{"action": "fold", "amount": 0}, nil
	}
	return nil, badRequest{"valid_actions has no known action"}
}

func main() {
	rand.Seed(time.Now().UnixNano())
	port := portArg()
	serve(port, name, map[string]Route{
		"GET /health": func(Body) (any, error) { return map[string]string{"status": "healthy"}, nil },
		"GET /info": func(Body) (any, error) {
			return map[string]string{"name": name, "ai_id": name, "version": "1.0", "description": "check-call Hold'em bot in Go"}, nil
		},
		"POST /action": action,
	})
}
