//! A picture as a list of marks in canvas pixels: what the canvas painter replays, and what the
//! native tests read (a box corner, an arrow's length) without a browser.

/// A point in canvas pixels: x to the right, y downwards, origin at the top left.
pub type Px = [f64; 2];

/// The colours of the drawing (CSS strings), in one place so the views agree.
pub mod palette {
    /// Ground (half-plane, plane) fill.
    pub const GROUND: &str = "#e9e4dc";
    /// Ground surface line.
    pub const GROUND_LINE: &str = "#8a7f72";
    /// The top view's floor.
    pub const FLOOR_TOP: &str = "#f4f1ec";
    /// A moving body's fill.
    pub const BODY: &str = "#c9daf8";
    /// A fixed body's fill.
    pub const FIXED: &str = "#d8d2c8";
    /// Body outlines and feet.
    pub const INK: &str = "#1d2330";
    /// Secondary lines (box edges, labels, the panel divider).
    pub const MUTED: &str = "#5b6474";
    /// The panel divider.
    pub const RULE: &str = "#d5d9e0";
    /// Force arrows and loaded or impacting contacts.
    pub const FORCE: &str = "#d1242f";
    /// Touching (closed, unloaded) contacts; a sphere's body-x marker.
    pub const TOUCHING: &str = "#1f6feb";
    /// Open contacts near closing.
    pub const OPEN: &str = "#9aa3b2";
    /// A sphere's body-y cross.
    pub const CROSS: &str = "#9a6700";
    /// The drag line.
    pub const DRAG: &str = "#8250df";
    /// A joint's pin.
    pub const PIN: &str = "#ffffff";
}

/// How a mark is filled and stroked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Fill colour, if filled.
    pub fill: Option<&'static str>,
    /// Stroke colour, if outlined.
    pub stroke: Option<&'static str>,
    /// Stroke width, px.
    pub line_width: f64,
    /// Dash and gap lengths, px (solid when None).
    pub dash: Option<[f64; 2]>,
}

impl Style {
    /// Filled, not outlined.
    pub fn fill(colour: &'static str) -> Self {
        Self {
            fill: Some(colour),
            stroke: None,
            line_width: 0.0,
            dash: None,
        }
    }

    /// Outlined with `width` px, not filled.
    pub fn stroke(colour: &'static str, width: f64) -> Self {
        Self {
            fill: None,
            stroke: Some(colour),
            line_width: width,
            dash: None,
        }
    }

    /// Filled and outlined.
    pub fn filled_outline(fill: &'static str, stroke: &'static str, width: f64) -> Self {
        Self {
            fill: Some(fill),
            stroke: Some(stroke),
            line_width: width,
            dash: None,
        }
    }
}

/// One thing drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A polyline, closed into a polygon when `closed`.
    Path {
        /// Vertices, px.
        points: Vec<Px>,
        /// Joins the last vertex to the first (and fills, if the style fills).
        closed: bool,
        /// Fill and stroke.
        style: Style,
    },
    /// Separate line segments stroked together (a cuboid's edges).
    Segments {
        /// Segment ends, px.
        pairs: Vec<(Px, Px)>,
        /// Stroke (fill is ignored).
        style: Style,
    },
    /// A circle.
    Circle {
        /// Centre, px.
        centre: Px,
        /// Radius, px.
        radius: f64,
        /// Fill and stroke.
        style: Style,
    },
    /// A label.
    Text {
        /// Left end of the baseline, px.
        at: Px,
        /// The words.
        text: String,
        /// Colour.
        colour: &'static str,
        /// Font size, px.
        size: f64,
    },
}

/// A canvas-sized list of marks, painted in order (later marks over earlier ones).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Picture {
    /// Canvas width, px.
    pub width: f64,
    /// Canvas height, px.
    pub height: f64,
    /// The marks, back to front.
    pub marks: Vec<Mark>,
}

impl Picture {
    /// An empty picture of the canvas size.
    pub fn new(width: f64, height: f64) -> Self {
        Self {
            width,
            height,
            marks: Vec::new(),
        }
    }

    /// A closed polygon.
    pub fn polygon(&mut self, points: Vec<Px>, style: Style) {
        self.marks.push(Mark::Path {
            points,
            closed: true,
            style,
        });
    }

    /// An open line through `points`.
    pub fn line(&mut self, points: Vec<Px>, style: Style) {
        self.marks.push(Mark::Path {
            points,
            closed: false,
            style,
        });
    }

    /// A circle.
    pub fn circle(&mut self, centre: Px, radius: f64, style: Style) {
        self.marks.push(Mark::Circle {
            centre,
            radius,
            style,
        });
    }

    /// A label.
    pub fn text(&mut self, at: Px, text: &str, colour: &'static str, size: f64) {
        self.marks.push(Mark::Text {
            at,
            text: text.to_owned(),
            colour,
            size,
        });
    }

    /// A force arrow from `from` to `to` (px): a shaft of width 2·`dpr` and a filled head of
    /// length min(10·`dpr`, 0.4·length) and half-width half that. Shorter than a pixel, nothing.
    pub fn arrow(&mut self, from: Px, to: Px, dpr: f64) {
        let (dx, dy) = (to[0] - from[0], to[1] - from[1]);
        let length = dx.hypot(dy);
        if length.is_nan() || length < 1.0 {
            return;
        }
        let head = (10.0 * dpr).min(0.4 * length);
        let (ux, uy) = (dx / length, dy / length);
        let base = [to[0] - ux * head, to[1] - uy * head];
        self.line(vec![from, base], Style::stroke(palette::FORCE, 2.0 * dpr));
        let half = 0.5 * head;
        self.polygon(
            vec![
                to,
                [base[0] - uy * half, base[1] + ux * half],
                [base[0] + uy * half, base[1] - ux * half],
            ],
            Style::fill(palette::FORCE),
        );
    }
}
