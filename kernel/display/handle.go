package display

import (
	"crypto/rand"
	"encoding/hex"
)

// Display shows v in the output of the running cell, rendered with Render.
// A Bundle is shown as is, so a value of a type declared in a cell can be
// shown with its own methods through the typed Render* functions:
//
//	display.Display(display.RenderHTMLer(v))
func Display(v any) { publisher().Publish(Render(v), nil, "", false) }

// Clear clears the output of the running cell. With wait true the clearing
// happens when the next output arrives, which avoids flicker in animations.
func Clear(wait bool) { publisher().ClearOutput(wait) }

// Handle is a display that can be replaced in place (Jupyter's display_id
// and update_display_data): show a value with Display, replace it later
// with Update, even from another cell.
//
//	h := display.NewHandle()
//	h.Display("starting")
//	h.Update(result)
type Handle struct {
	id string
}

// NewHandle returns a handle with a fresh random display ID.
func NewHandle() *Handle { return &Handle{id: newID()} }

// ID returns the display ID.
func (h *Handle) ID() string { return h.id }

// Display shows v as a new output carrying the handle's display ID.
func (h *Handle) Display(v any) { publisher().Publish(Render(v), nil, h.id, false) }

// Update replaces every output shown under the handle's display ID with v.
func (h *Handle) Update(v any) { publisher().Publish(Render(v), nil, h.id, true) }

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
