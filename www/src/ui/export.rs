//! Chart downloads as SVG and PNG. The SVG on the page is drawn by `style.css` through classes
//! and CSS variables; the exported copy carries the computed colours and fonts on each element
//! as presentation attributes (a `style` attribute would be refused by the page's
//! `style-src 'self'`), a background, `xmlns`, `width`, `height` and `viewBox`, so it looks the
//! same outside the page. The PNG draws that SVG, as a `data:` URL (the page's
//! Content-Security-Policy allows `img-src data:` only), onto a canvas at twice the size.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use crate::ui::dom::{download, download_blob, window};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Presentation properties copied from the computed style, with the value that needs no
/// copying (the SVG default). `None`: always copied.
const PROPS: &[(&str, Option<&str>)] = &[
    ("fill", Some("rgb(0, 0, 0)")),
    ("fill-opacity", Some("1")),
    ("stroke", Some("none")),
    ("stroke-width", Some("1px")),
    ("stroke-dasharray", Some("none")),
    ("stroke-opacity", Some("1")),
    ("opacity", Some("1")),
];
/// Font properties, copied onto text only (and the font family onto the root).
const TEXT_PROPS: &[(&str, Option<&str>)] = &[("font-size", None), ("font-weight", Some("400"))];

/// Copies the computed `props` of `from` onto `to` as presentation attributes.
fn copy_style(from: &web_sys::Element, to: &web_sys::Element, props: &[(&str, Option<&str>)]) {
    let Some(cs) = window().and_then(|w| w.get_computed_style(from).ok().flatten()) else { return };
    for (p, default) in props {
        let v = cs.get_property_value(p).unwrap_or_default();
        // A paint server reference stays in the element's own attribute.
        if v.is_empty() || v.contains("url(") || Some(v.as_str()) == *default {
            continue;
        }
        let _ = to.set_attribute(p, &v);
    }
}

/// The background the chart is drawn on: the first ancestor with an opaque background colour.
fn background_of(el: &web_sys::Element) -> String {
    let mut cur = el.parent_element();
    while let Some(e) = cur {
        if let Some(cs) = window().and_then(|w| w.get_computed_style(&e).ok().flatten()) {
            let v = cs.get_property_value("background-color").unwrap_or_default();
            if !v.is_empty() && v != "transparent" && v != "rgba(0, 0, 0, 0)" {
                return v;
            }
        }
        cur = e.parent_element();
    }
    "#ffffff".into()
}

fn size_of(svg: &web_sys::Element) -> (f64, f64) {
    let attr = |n: &str| svg.get_attribute(n).and_then(|v| v.trim_end_matches("px").parse::<f64>().ok());
    let r = svg.get_bounding_client_rect();
    let w = attr("width").filter(|w| *w > 0.0).unwrap_or(r.width()).max(1.0).round();
    let h = attr("height").filter(|h| *h > 0.0).unwrap_or(r.height()).max(1.0).round();
    (w, h)
}

/// A standalone copy of the chart `svg` as markup, and its size in pixels.
pub fn standalone_svg(svg: &web_sys::Element) -> Option<(String, f64, f64)> {
    let doc = window()?.document()?;
    let clone: web_sys::Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    let (w, h) = size_of(svg);
    let originals = svg.query_selector_all("*").ok()?;
    let copies = clone.query_selector_all("*").ok()?;
    for i in 0..originals.length().min(copies.length()) {
        let (Some(o), Some(c)) = (originals.item(i), copies.item(i)) else { continue };
        let (Ok(o), Ok(c)) = (o.dyn_into::<web_sys::Element>(), c.dyn_into::<web_sys::Element>()) else {
            continue;
        };
        copy_style(&o, &c, PROPS);
        if matches!(o.tag_name().as_str(), "text" | "tspan") {
            copy_style(&o, &c, TEXT_PROPS);
        }
        let _ = c.remove_attribute("tabindex");
    }
    let font = window()?
        .get_computed_style(svg)
        .ok()
        .flatten()
        .and_then(|cs| cs.get_property_value("font-family").ok())
        .unwrap_or_default();
    let _ = clone.set_attribute("xmlns", SVG_NS);
    let _ = clone.set_attribute("width", &format!("{w}"));
    let _ = clone.set_attribute("height", &format!("{h}"));
    if !clone.has_attribute("viewBox") {
        let _ = clone.set_attribute("viewBox", &format!("0 0 {w} {h}"));
    }
    let _ = clone.set_attribute("font-family", &font.replace('"', "'"));
    let bg = doc.create_element_ns(Some(SVG_NS), "rect").ok()?;
    let _ = bg.set_attribute("width", "100%");
    let _ = bg.set_attribute("height", "100%");
    let _ = bg.set_attribute("fill", &background_of(svg));
    let _ = clone.insert_before(&bg, clone.first_child().as_ref());
    let text = web_sys::XmlSerializer::new().ok()?.serialize_to_string(&clone).ok()?;
    Some((text, w, h))
}

/// The chart SVG inside the export scope around the event's target.
fn chart_of(ev: &web_sys::Event) -> Option<web_sys::Element> {
    let el: web_sys::Element = ev.target()?.dyn_into().ok()?;
    let scope = el.closest("[data-export-scope]").ok()??;
    scope.query_selector(".svg-host svg").ok()?
}

/// A file name from a chart name: letters, digits, dots and dashes.
fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' })
        .collect();
    let s = s.trim_matches('-').chars().take(80).collect::<String>();
    if s.is_empty() {
        "chart".into()
    } else {
        s
    }
}

/// Downloads the chart as a standalone SVG file.
pub fn download_svg(svg: &web_sys::Element, name: &str) {
    if let Some((text, _, _)) = standalone_svg(svg) {
        download(&format!("{}.svg", file_stem(name)), "image/svg+xml", &text);
    }
}

/// Downloads the chart as a PNG at twice its size.
pub fn download_png(svg: &web_sys::Element, name: &str) {
    let Some((text, w, h)) = standalone_svg(svg) else { return };
    let Ok(img) = web_sys::HtmlImageElement::new() else { return };
    let file = format!("{}.png", file_stem(name));
    let img2 = img.clone();
    let onload = Closure::once_into_js(move || {
        let Some(doc) = window().and_then(|w| w.document()) else { return };
        let Some(canvas) =
            doc.create_element("canvas").ok().and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            return;
        };
        canvas.set_width((w * 2.0) as u32);
        canvas.set_height((h * 2.0) as u32);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let _ = ctx.scale(2.0, 2.0);
        let _ = ctx.draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w, h);
        let done = Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
            if let Some(b) = blob {
                download_blob(&file, &b);
            }
        });
        let _ = canvas.to_blob(done.unchecked_ref());
    });
    img.set_onload(Some(onload.unchecked_ref()));
    let url = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(&text));
    img.set_src(&url);
}

/// "SVG" and "PNG" buttons for the chart in the nearest `data-export-scope` around them;
/// `name` gives the file name and the buttons' labels.
#[component]
pub fn ExportButtons(#[prop(into)] name: Signal<String>) -> impl IntoView {
    let svg = move |ev: leptos::ev::MouseEvent| {
        if let Some(el) = chart_of(&ev) {
            download_svg(&el, &name.get_untracked());
        }
    };
    let png = move |ev: leptos::ev::MouseEvent| {
        if let Some(el) = chart_of(&ev) {
            download_png(&el, &name.get_untracked());
        }
    };
    view! {
        <span class="export-btns">
            <button class="btn small" data-export="svg" aria-label=move || format!("download {} as SVG", name.get()) on:click=svg>"SVG"</button>
            <button class="btn small" data-export="png" aria-label=move || format!("download {} as PNG", name.get()) on:click=png>"PNG"</button>
        </span>
    }
}
