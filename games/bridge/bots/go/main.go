// Bridge reference bot in Go (the go task track): passes in the auction (or exchanges its lowest
// card where asked), and in the play wins with its highest legal card when it leads and otherwise
// plays its lowest. Simple on purpose: a working Go bot of the protocol, not a strong one.
package main

import "strings"

const name = "go-simple"

const ranks = "23456789TJQKA"

func rankOf(card string) int {
	if len(card) != 2 {
		return -1
	}
	return strings.IndexByte(ranks, card[0])
}

func action(b Body) (any, error) {
	if _, ok := b["game_state"].(map[string]any); !ok {
		return nil, badRequest{"game_state must be an object"}
	}
	var cards []string
	kind := ""
	for _, a := range list(b["legal_actions"]) {
		act, _ := a.(map[string]any)
		switch str(act["type"]) {
		case "call":
			if str(act["call_type"]) == "pass" {
				return map[string]any{"action": map[string]any{"type": "call", "call_type": "pass"}}, nil
			}
		case "play", "exchange":
			if rankOf(str(act["card"])) >= 0 {
				kind = str(act["type"])
				cards = append(cards, str(act["card"]))
			}
		}
	}
	if len(cards) == 0 {
		return map[string]any{"action": map[string]any{"type": "call", "call_type": "pass"}}, nil
	}
	state := b["game_state"].(map[string]any)
	leading := len(list(state["current_trick"])) == 0
	pick := cards[0]
	for _, c := range cards {
		if (kind == "play" && leading) == (rankOf(c) > rankOf(pick)) && rankOf(c) != rankOf(pick) {
			pick = c
		}
	}
	return map[string]any{"action": map[string]any{"type": kind, "card": pick}}, nil
}

func main() {
	port := portArg()
	ok := func(status string) Route {
		return func(Body) (any, error) { return map[string]any{"status": status, "ai_id": name}, nil }
	}
	serve(port, name, map[string]Route{
		"GET /health": func(Body) (any, error) { return map[string]string{"status": "healthy"}, nil },
		"GET /info": func(Body) (any, error) {
			return map[string]string{"name": name, "ai_id": name, "version": "1.0", "description": "simple bridge bot in Go"}, nil
		},
		"POST /join_game":  ok("joined"),
		"POST /leave_game": ok("left"),
		"POST /get_action": action,
	})
}
