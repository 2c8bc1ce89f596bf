import numpy as np
from scipy.stats import spearmanr
from pathlib import Path
from scripts.eval import train_emotion_intensity as T
from common.embedding.registry import offline_text_embedder
from interaction.offline.emotion_intensity import features
from sklearn.neural_network import MLPRegressor
rows = T.read_rated(T.fetch(Path("/tmp/emo/cache")))
emb = T.CachedEmbedder(offline_text_embedder(), Path("/tmp/emo/cache/minilm_vectors.npz"))
tr=[r for r in rows if r.split=="train"]; dv=[r for r in rows if r.split=="dev"]
X=lambda ts: features(emb,ts).astype(np.float64)
Xtr,Xdv=X([r.text for r in tr]),X([r.text for r in dv]); m,s=Xtr.mean(0),np.maximum(Xtr.std(0),1e-6); Xtr,Xdv=(Xtr-m)/s,(Xdv-m)/s
I=lambda rs: np.array([r.intensity for r in rs])
sents=["I swam a whole length of the pool without stopping today, first time in my life, at 64.","My granddaughter said her first word this morning.","Our house burned down last night.","At the scan today the doctor said the baby's heartbeat is strong.","I took the 8:15 train to work as usual.","The supermarket moved the pasta to aisle nine.","They finally fixed the pothole outside the office.","I hate it when the kettle takes forever."]
Xs=(X(sents)-m)/s
ci,bi=T.ridge(Xtr,I(tr),1000)
mlp=MLPRegressor(hidden_layer_sizes=(128,),alpha=3.0,max_iter=300,early_stopping=True,random_state=0).fit(Xtr,I(tr))
p1=Xs@ci+bi; p2=mlp.predict(Xs)
print("dev sp ridge", spearmanr(Xdv@ci+bi,I(dv)).statistic, "mlp", spearmanr(mlp.predict(Xdv),I(dv)).statistic)
print("ridge dev quantiles", np.quantile(Xdv@ci+bi,[.5,.8,.9]), "mlp", np.quantile(mlp.predict(Xdv),[.5,.8,.9]))
for t,a,b in zip(sents,p1,p2): print(round(a,3), round(b,3), t)
