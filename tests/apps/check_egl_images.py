#!/usr/bin/env python3
"""Records egl_images and checks the EGL images and fences that carry its
frames from one context to another (no share group between them): each
image records its context, target, the GL object it was made from and its
attribute list (EGLint for eglCreateImageKHR, EGLAttrib for eglCreateImage);
the handle it returned is the one the other context bound; every fence is
created, waited on and destroyed by the same handle, each frame. Then the
trace is replayed headless: the frames can only match if replay re-made the
images from the replayed objects.

usage: check_egl_images.py --gltrace GLTRACE --app EGL_IMAGES --trace OUT.gltrace"""

import gltest as gt
import apptrace as at


EGL_NONE, EGL_GL_TEXTURE_LEVEL, EGL_IMAGE_PRESERVED = 0x3038, 0x30BC, 0x30D2
EGL_CONDITION_SATISFIED = 0x30F6
FRAMES = 3


def main():
    args = at.parse_args()
    ck = gt.Checker('egl_images')
    recs = at.record_sample(ck, args, 'egl_images')
    if not recs:
        ck.exit()
    c = gt.calls(recs)
    ctxs = gt.named(c, 'eglCreateContext')
    tex_img, rb_img = gt.named(c, 'eglCreateImageKHR'), gt.named(c, 'eglCreateImage')
    ck.check("eglCreateImageKHR: the producer's context, EGL_GL_TEXTURE_2D of texture 1, level 0 and "
             "preserved, a handle returned",
             len(tex_img) == 1 and len(ctxs) == 2 and tex_img[0]['args']['ctx'] == ctxs[0]['ret'] and
             tex_img[0]['args']['target'] == 'EGL_GL_TEXTURE_2D' and tex_img[0]['args']['buffer'] == '0x1' and
             tex_img[0]['args']['attrib_list'].get('data') == [EGL_GL_TEXTURE_LEVEL, 0, EGL_IMAGE_PRESERVED, 1,
                                                               EGL_NONE] and
             tex_img[0]['ret'] not in ('0x0', None), tex_img)
    ck.check('eglCreateImage (EGL 1.5): EGL_GL_RENDERBUFFER of renderbuffer 1, its EGLAttrib list recorded',
             len(rb_img) == 1 and rb_img[0]['args']['target'] == 'EGL_GL_RENDERBUFFER' and
             rb_img[0]['args']['buffer'] == '0x1' and
             rb_img[0]['args']['attrib_list'].get('data') == [EGL_IMAGE_PRESERVED, 1, EGL_NONE] and
             rb_img[0]['ret'] not in ('0x0', None), rb_img)
    target_tex = gt.named(c, 'glEGLImageTargetTexture2DOES')
    target_rb = gt.named(c, 'glEGLImageTargetRenderbufferStorageOES')
    at.links(ck, 'the consumer binds the texture image eglCreateImageKHR returned', tex_img, target_tex, 'image')
    at.links(ck, 'the consumer binds the renderbuffer image eglCreateImage returned', rb_img, target_rb, 'image')
    ck.check('both bindings happen in the consumer context (ctx 1)',
             [r['ctx'] for r in target_tex + target_rb] == [1, 1], target_tex + target_rb)
    made = gt.named(c, 'eglCreateSyncKHR')
    ck.check(f'{FRAMES} fences made in the consumer context after its clear',
             len(made) == FRAMES and all(r['ctx'] == 1 and r['args']['type'] == 'EGL_SYNC_FENCE' for r in made),
             made)
    at.links(ck, 'each is waited on in the producer (eglWaitSyncKHR)', made, gt.named(c, 'eglWaitSyncKHR'), 'sync')
    at.links(ck, 'and then destroyed', made, gt.named(c, 'eglDestroySyncKHR'), 'sync')
    fences = gt.named(c, 'eglCreateSync')
    at.links(ck, 'each EGL 1.5 fence of the producer is waited on with eglClientWaitSync', fences,
             gt.named(c, 'eglClientWaitSync'), 'sync')
    ck.check('every eglClientWaitSync returned EGL_CONDITION_SATISFIED',
             [r.get('ret') for r in gt.named(c, 'eglClientWaitSync')] == [EGL_CONDITION_SATISFIED] * FRAMES,
             gt.named(c, 'eglClientWaitSync'))
    p = gt.run([args.gltrace, 'replay', args.trace], env=gt.gl_env(headless=True))
    # Each frame: the producer's swap, and the consumer context (which never
    # swaps) let go of after its clear (--fb=swap's snapshots of a context
    # that does not swap).
    ck.check(f'replayed headless: all {2 * FRAMES} snapshots bit-exact (exit 0): {FRAMES} swaps and {FRAMES}'
             ' releases of the consumer context',
             p.returncode == 0 and f'{2 * FRAMES} snapshots: {2 * FRAMES} matched' in p.stderr, p.stderr.strip())
    ck.check('replay had nothing to warn about', 'not made' not in p.stderr and 'never created' not in p.stderr,
             p.stderr.strip())
    ck.exit()


if __name__ == '__main__':
    main()
