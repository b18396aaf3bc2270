"""A Lambda layer whose function captures another Keras input (its shape), as Mask R-CNN does.
Report: https://github.com/matterport/Mask_RCNN/issues/2867"""
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras import layers as KL


def norm_boxes_graph(boxes, shape):
    h, w = tf.split(tf.cast(shape, tf.float32), 2)
    scale = tf.concat([h, w, h, w], axis=-1) - tf.constant(1.0)
    return tf.divide(boxes, scale)


input_image = KL.Input(shape=[None, None, 3], name="input_image")
input_gt_boxes = KL.Input(shape=[None, 4], name="input_gt_boxes")
gt_boxes = KL.Lambda(lambda x: norm_boxes_graph(x, K.shape(input_image)[1:3]))(input_gt_boxes)
print("OK")
