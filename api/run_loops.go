package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
	"agencyhub/models/automation"
)

// loopItemView is one item of a loop.for_each in a run (an extension of the spec).
type loopItemView struct {
	LoopKey         string          `json:"loop_key"`
	ItemIndex       int             `json:"item_index"`
	Status          string          `json:"status"`
	ItemJSON        any             `json:"item_json"`
	Error           string          `json:"error"`
	FailedActionKey string          `json:"failed_action_key"`
	StartedAt       *time.Time      `json:"started_at"`
	FinishedAt      *time.Time      `json:"finished_at"`
	Actions         []actionRunView `json:"actions,omitempty"`
}

func viewLoopItem(it automation.LoopItem) loopItemView {
	return loopItemView{
		LoopKey: it.LoopKey, ItemIndex: it.ItemIndex, Status: it.Status, ItemJSON: automation.DecodeValue(it.Item),
		Error: it.Error, FailedActionKey: it.FailedActionKey, StartedAt: it.StartedAt, FinishedAt: it.FinishedAt,
	}
}

// loopKey reads the {loop_key} of a loop route: a loop.for_each of the run's graph, by its
// key in the run (orders[2].lines for an inner loop). Errors: not found.
func loopKey(c *gin.Context) (string, error) {
	key := c.Param("loop_key")
	last := key[strings.LastIndex(key, ".")+1:]
	if a, ok := run(c).GraphJSON().Action(last); !ok || a.ActionTypeKey != automation.TypeLoop {
		return "", models.NotFound("loop_not_found")
	}
	return key, nil
}

// runLoopItems serves GET /api/v1/runs/{workflow_run_id}/loops/{loop_key}/items: the loop's
// items in item order, optionally of one status. The cursor is the index to go on from.
func (s *Server) runLoopItems(c *gin.Context) {
	key, err := loopKey(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	limit, err := httpx.Limit(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	rows, next, err := s.Workflows.LoopItems(c, run(c).ID, key, automation.ItemFilter{Status: c.Query("status")}, limit, c.Query("cursor"))
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	renderList(c, rows, next, viewLoopItem)
}

// runLoopItem serves GET /api/v1/runs/{workflow_run_id}/loops/{loop_key}/items/{item_index}:
// the item with its body's action runs, keyed as in the graph.
func (s *Server) runLoopItem(c *gin.Context) {
	key, err := loopKey(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	index, err := strconv.Atoi(c.Param("item_index"))
	if err != nil || index < 0 {
		httpx.WriteError(c, models.NotFound("loop_item_not_found"))
		return
	}
	it, rows, err := s.Workflows.LoopItem(c, run(c), key, index)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	view := viewLoopItem(*it)
	lang := httpx.Lang(c)
	view.Actions = make([]actionRunView, len(rows))
	for i, row := range rows {
		view.Actions[i] = viewActionRun(lang, row)
		view.Actions[i].ActionKey = strings.TrimPrefix(row.ActionKey, it.Key()+".")
	}
	c.JSON(http.StatusOK, view)
}
