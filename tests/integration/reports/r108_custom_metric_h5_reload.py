"""Training again a model with a custom metric function, reloaded from HDF5.
Report: tensorflow/tensorflow#45903: "Model with custom metrics broken if saved and reloaded" (new in 2.4, not in 2.3.1)"""
import os
import tempfile

import numpy as np
from tensorflow.keras.layers import Dense, Flatten
from tensorflow.keras.models import Sequential, load_model
from tensorflow.keras.optimizers import Adam


def cmetrics(y_true, y_pred):
    return 0


model = Sequential()
model.add(Dense(4, activation="relu", input_shape=(3,)))
model.add(Flatten())
model.add(Dense(2, activation="sigmoid"))
model.compile(loss="binary_crossentropy", optimizer=Adam(), metrics=[cmetrics])
xdata = np.random.rand(8, 3)
ydata = np.random.rand(8, 2)
model.fit(x=xdata, y=ydata, verbose=0)
path = os.path.join(tempfile.mkdtemp(), "test.h5")
model.save(path, save_format="h5")
model = load_model(path, custom_objects={"cmetrics": cmetrics})
model.fit(x=xdata, y=ydata, verbose=0)
print("OK")
