package api

import (
	"net/http"

	"github.com/gin-gonic/gin"

	"agencyhub/api/httpx"
	"agencyhub/models"
)

// list is the one shape of every list answer.
type list[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor"`
}

// servePage is the shape of every paged list handler: it reads limit and cursor, asks
// fetch for that page of rows and renders them with view.
func servePage[R, T any](c *gin.Context, fetch func(page models.PageRequest) ([]R, string, error), view func(rows []R) ([]T, error)) {
	page, err := httpx.Page(c)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	rows, next, err := fetch(page)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	items, err := view(rows)
	if err != nil {
		httpx.WriteError(c, err)
		return
	}
	c.JSON(http.StatusOK, list[T]{Items: items, NextCursor: next})
}

// each renders rows one by one with view.
func each[R, T any](view func(R) T) func(rows []R) ([]T, error) {
	return func(rows []R) ([]T, error) {
		items := make([]T, len(rows))
		for i, r := range rows {
			items[i] = view(r)
		}
		return items, nil
	}
}

// renderList answers rows that are not paged (a run's actions, a page of events read by
// sequence) in the list shape.
func renderList[R, T any](c *gin.Context, rows []R, next string, view func(R) T) {
	items, _ := each(view)(rows)
	c.JSON(http.StatusOK, list[T]{Items: items, NextCursor: next})
}
