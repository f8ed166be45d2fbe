// A Qt Quick window on GLES, as a Qt 5 program on Linux asks for one: Qt
// built for desktop OpenGL takes GLES only when the default surface format
// says so (QT_OPENGL and --gles change nothing on xcb), so this sets it and
// shows the QML scene named on the command line (tests/apps/check_qt.py).
#include <cstdio>

#include <QGuiApplication>
#include <QQuickView>
#include <QSurfaceFormat>
#include <QUrl>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: qt_quick SCENE.qml\n");
        return 2;
    }
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGLES);
    format.setVersion(3, 0);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    QSurfaceFormat::setDefaultFormat(format);
    QGuiApplication app(argc, argv);
    QQuickView view;
    view.setSource(QUrl::fromLocalFile(QString::fromLocal8Bit(argv[1])));
    if (view.status() != QQuickView::Ready)
        return 1;
    view.show();
    return app.exec();
}
