"""A text window for the dictation tests: a Tk Text widget filling an X display, focused, that
writes its whole text to OUTPUT (atomically, UTF-8) whenever it changes, and READY once it has
the keyboard focus. Usage: python3 dictation_window.py OUTPUT READY (DISPLAY from the environment)."""

import os
import sys
import tkinter

output, ready = sys.argv[1], sys.argv[2]
root = tkinter.Tk()
root.title("earshot-dictation-window")
root.geometry("1000x700+0+0")
text = tkinter.Text(root, wrap="word", undo=False)
text.pack(fill="both", expand=True)
last = [None]


def save():
    content = text.get("1.0", "end-1c")
    if content != last[0]:
        last[0] = content
        temporary = output + ".tmp"
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(content)
        os.replace(temporary, output)


def watch():
    save()
    root.after(20, watch)


def focused():
    text.focus_force()
    root.update_idletasks()
    if root.focus_get() is text:
        save()
        with open(ready, "w", encoding="utf-8") as file:
            file.write("ready\n")
        watch()
    else:
        root.after(20, focused)


root.after(50, focused)
root.mainloop()
