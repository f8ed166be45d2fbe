/* The program trim_app and held_app draw with: a quad moved by u_offset,
 * of colour u_color mixed with texture u_tex by u_textured. */
#ifndef QUAD_SHADER_H
#define QUAD_SHADER_H

static const char vs_src[] = "#version 300 es\n"
                             "layout(location = 0) in vec2 a_pos;\n"
                             "uniform vec2 u_offset;\n"
                             "out vec2 v_uv;\n"
                             "void main() { v_uv = a_pos * 0.5 + 0.5; gl_Position = vec4(a_pos + u_offset, 0.0, 1.0); }\n";
static const char fs_src[] = "#version 300 es\n"
                             "precision mediump float;\n"
                             "uniform vec4 u_color;\n"
                             "uniform sampler2D u_tex;\n"
                             "uniform float u_textured;\n"
                             "in vec2 v_uv;\n"
                             "out vec4 o;\n"
                             "void main() { o = mix(u_color, texture(u_tex, v_uv), u_textured); }\n";

#endif
