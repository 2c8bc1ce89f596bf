import numpy as np, re, tarfile
from scipy.stats import spearmanr
from pathlib import Path
from sklearn.metrics import roc_auc_score
from scripts.eval import train_emotion_intensity as T
from scripts.eval.worth_keeping import scripted_turns
from common.embedding.registry import offline_text_embedder
from interaction.offline.emotion_intensity import features
from interaction.offline.understand_rules import felt_parts
rows = T.read_rated(T.fetch(Path("/tmp/emo/cache")))
emb = T.CachedEmbedder(offline_text_embedder(), Path("/tmp/emo/cache/minilm_vectors.npz"))
with tarfile.open("/tmp/emo/cache/vaderSentiment-3.3.2.tar.gz") as t:
    lex=t.extractfile("vaderSentiment-3.3.2/vaderSentiment/vader_lexicon.txt").read().decode("utf-8")
words=[(l.split("\t")[0], float(l.split("\t")[1])) for l in lex.splitlines() if l.strip() and re.fullmatch(r"[a-z][a-z'-]+", l.split("\t")[0])]
print(len(words))
tr=[r for r in rows if r.split=="train"]; dv=[r for r in rows if r.split=="dev"]
X=lambda ts: features(emb,ts).astype(np.float64)
Xtr=X([r.text for r in tr]); Xw=X([w for w,_ in words]); Xdv=X([r.text for r in dv]); emb.save()
m,s=Xtr.mean(0),np.maximum(Xtr.std(0),1e-6)
Z=lambda A:(A-m)/s
ytr=np.array([r.intensity for r in tr]); yw=np.array([min(1,abs(v)/4) for _,v in words]); ydv=np.array([r.intensity for r in dv])
turns=[t for t in scripted_turns() if not t.suppressed]; ys=np.array([t.keep for t in turns]); sp_=np.array([t.split for t in turns])
def read(c,b,texts):
    out=[]
    for t in texts:
        parts=list(felt_parts(t)) or [t]
        out.append((Z(X(parts))@c+b).max())
    return np.array(out)
probe=["I swam a whole length of the pool without stopping today, first time in my life, at 64.","My granddaughter said her first word this morning.","Our house burned down last night.","At the scan today the doctor said the baby's heartbeat is strong.","I took the 8:15 train to work as usual.","The supermarket moved the pasta to aisle nine.","They finally fixed the pothole outside the office.","I had porridge for breakfast."]
for wweight in (0.0, 0.3, 1.0):
    Xall=np.vstack([Z(Xtr), Z(Xw)]); yall=np.concatenate([ytr,yw]); sw=np.concatenate([np.ones(len(ytr)), np.full(len(yw), wweight)])
    sq=np.sqrt(sw)[:,None]; ym=(yall*sw).sum()/sw.sum()
    c=np.linalg.solve((Xall*sq).T@(Xall*sq)+1000*np.eye(Xall.shape[1]), (Xall*sq).T@((yall-ym)*sq[:,0])); b=ym
    p=Z(Xdv)@c+b; ps=read(c,b,[t.text for t in turns])
    print(wweight, "dev sp", round(spearmanr(p,ydv).statistic,3), "scripts AUC dev", round(roc_auc_score(ys[sp_=="dev"],ps[sp_=="dev"]),3), "test", round(roc_auc_score(ys[sp_=="test"],ps[sp_=="test"]),3))
    print("   ", [round(float(x),3) for x in (Z(X(probe))@c+b)])
emb.save()
