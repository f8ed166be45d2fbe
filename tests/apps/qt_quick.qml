// Animated Qt Quick items of the kinds a Qt UI draws: a rotating
// gradient with rounded corners, text that changes each frame (glyphs
// added to Qt's distance-field cache), a clipped moving bar and a layer
// (an item drawn into a texture of its own, then into the window).
import QtQuick 2.15

Rectangle {
    width: 320; height: 240; color: "#203040"
    Rectangle {
        id: box; width: 80; height: 80; x: 40; y: 60; radius: 12
        gradient: Gradient {
            GradientStop { position: 0; color: "orange" }
            GradientStop { position: 1; color: "purple" }
        }
        RotationAnimation on rotation { from: 0; to: 360; duration: 3000; loops: Animation.Infinite }
    }
    Text { x: 150; y: 20; text: "angle " + Math.round(box.rotation); color: "white"; font.pixelSize: 22 }
    Rectangle {
        x: 150; y: 120; width: 140; height: 20; color: "#406080"; clip: true
        Rectangle {
            width: 40; height: 20; color: "lime"
            NumberAnimation on x { from: -40; to: 140; duration: 2000; loops: Animation.Infinite }
        }
    }
    Rectangle {
        x: 200; y: 160; width: 60; height: 60; color: "teal"; opacity: 0.7
        layer.enabled: true
        Rectangle {
            anchors.centerIn: parent; width: 30; height: 30; color: "yellow"
            RotationAnimation on rotation { from: 0; to: 360; duration: 1500; loops: Animation.Infinite }
        }
    }
}
