// Animated Qt Quick items of the kinds a Qt UI draws: a rotating
// gradient with rounded corners, text that changes each frame (glyphs
// added to Qt's distance-field cache), a clipped moving bar, a layer
// (an item drawn into a texture of its own, then into the window), a
// canvas repainted each frame (its image written into Qt's texture atlas
// in five glTexSubImage2D of the same rectangles) and image particles
// (point sprites: Qt enables GL_POINT_SPRITE_OES, which GLES 3 refuses).
import QtQuick 2.15
import QtQuick.Particles 2.15

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
    Canvas {
        id: canvas; x: 10; y: 160; width: 60; height: 60
        property real a: 0
        NumberAnimation on a { from: 0; to: 6.28; duration: 3000; loops: Animation.Infinite }
        onAChanged: requestPaint()
        onPaint: {
            var c = getContext("2d");
            c.fillStyle = "#223"; c.fillRect(0, 0, width, height);
            c.strokeStyle = "yellow"; c.lineWidth = 4; c.beginPath(); c.moveTo(30, 30);
            c.lineTo(30 + 25 * Math.cos(a), 30 + 25 * Math.sin(a)); c.stroke();
        }
    }
    ParticleSystem { id: particles }
    Emitter {
        system: particles; x: 110; y: 200; emitRate: 40; lifeSpan: 1000; size: 10
        velocity: AngleDirection { angleVariation: 360; magnitude: 40 }
    }
    ImageParticle { system: particles; source: "qrc:///particleresources/glowdot.png"; color: "orange" }
    Rectangle {
        x: 200; y: 160; width: 60; height: 60; color: "teal"; opacity: 0.7
        layer.enabled: true
        Rectangle {
            anchors.centerIn: parent; width: 30; height: 30; color: "yellow"
            RotationAnimation on rotation { from: 0; to: 360; duration: 1500; loops: Animation.Infinite }
        }
    }
}
