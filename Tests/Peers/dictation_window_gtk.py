"""The dictation tests' text window as a native Wayland client: a GTK 3 TextView filling the
window, focused, that writes its whole text to OUTPUT (atomically, UTF-8) whenever it changes,
and READY once it is shown with the text view focused. Usage: python3 dictation_window_gtk.py OUTPUT READY
(WAYLAND_DISPLAY from the environment; GDK_BACKEND=wayland)."""

import os
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

output, ready = sys.argv[1], sys.argv[2]
window = Gtk.Window(title="earshot-dictation-window")
window.set_default_size(1000, 700)
view = Gtk.TextView()
window.add(view)
buffer = view.get_buffer()


def save(*_):
    start, end = buffer.get_bounds()
    temporary = output + ".tmp"
    with open(temporary, "w", encoding="utf-8") as file:
        file.write(buffer.get_text(start, end, True))
    os.replace(temporary, output)


def focused(*_):
    # A headless compositor's seat has no keyboard until a typing tool brings a virtual one, so
    # the window is never told it is active before then: mapped, with the view focused, is ready.
    if view.is_focus() and window.get_mapped() and not os.path.exists(ready):
        save()
        with open(ready, "w", encoding="utf-8") as file:
            file.write("ready\n")
    return False


buffer.connect("changed", save)
window.connect("notify::is-active", focused)
window.connect("destroy", Gtk.main_quit)
window.show_all()
view.grab_focus()
GLib.timeout_add(50, lambda: focused() or not os.path.exists(ready))
Gtk.main()
