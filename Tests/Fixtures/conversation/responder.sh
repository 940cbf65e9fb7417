#!/bin/sh
# A responder for `earshotd --responder`: reads the person's words on stdin and prints one line
# to say back, chosen by keyword. It answers the requests of barge_in.wav as its script does.
#   earshotd --listen --stt embedded --tts embedded --responder Tests/Fixtures/conversation/responder.sh
words=$(tr '[:upper:]' '[:lower:]')
case "$words" in
    *weather*|*rain*|*sunny*|*forecast*)
        echo "Tomorrow will be sunny and warm, with a high of twenty four degrees, a light breeze from the west in the afternoon, and clear skies in the evening." ;;
    *light*|*lamp*)
        case "$words" in
            *off*) echo "Okay, the kitchen lights are off." ;;
            *) echo "Okay, the kitchen lights are on." ;;
        esac ;;
    *time*|*clock*)
        echo "It is $(date '+%-I:%M %p')." ;;
    *hello*|*hi\ *|*hey*)
        echo "Hello! Ask me about the weather, the lights, or the time." ;;
    *)
        echo "Sorry, I can only help with the weather, the lights, and the time." ;;
esac
