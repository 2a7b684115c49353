import Foundation

/// What a key asks the presenter to do.
enum PresenterAction: Equatable, Sendable {
    case next, previous, first, last
    /// Shift with next/previous: the first page of the next or previous
    /// slide, past the rest of an overlay (pdfpc's "user slide").
    case nextSlide, previousSlide
    /// Tab: the grid of slides on the console; Escape or Tab leaves it.
    case toggleOverview
    /// Up and Down move a row in the overview (elsewhere they are previous/next).
    case rowUp, rowDown
    /// A digit typed towards "N then Return".
    case digit(Int)
    /// Return: go to the typed page, or to the next page when none was typed.
    case enter
    case toggleBlack, toggleWhite, toggleFreeze
    /// `l` and `h`: pdfpc's pointer dot and spotlight over the slide.
    case togglePointer, toggleSpotlight
    /// `d`, `m` and `x`: pdfpc's pen, highlighter and eraser on the slide.
    case togglePen, toggleHighlighter, toggleEraser
    /// `c` and Shift+`c`: the current slide's drawing goes, or every slide's.
    case clearDrawing, clearAllDrawings
    case swapScreens
    case toggleTimer, resetTimer
    /// F5: back to the first page and start the timer.
    case startFromBeginning
    /// Shift+F5: start the timer on the current page.
    case startHere
    /// A click: on an internal link of the slide (its page, 0-based) or on
    /// a slide of the overview (its last page, fully built, as Return).
    case goToPage(Int)
    /// `e` or Ctrl+n (pdfpc's): edit this slide's notes on the console.
    case editNotes
    /// `?`: every key and what it does, over the console's slides.
    case toggleHelp
    case quit
}
